// editors/vscode/extension.js - starts `nvtxtc lsp` for NVTXT files with
// vscode-languageclient; the settings (settings.js) go as
// initializationOptions and, when they change, as
// workspace/didChangeConfiguration.
'use strict';
const vscode = require('vscode');
const { LanguageClient } = require('vscode-languageclient/node');
const { settings } = require('./settings');

let client;

function current() {
  const cfg = vscode.workspace.getConfiguration('nvtxtc');
  return settings((key, dflt) => cfg.get(key, dflt));
}

async function activate(context) {
  const command = vscode.workspace.getConfiguration('nvtxtc').get('path', 'nvtxtc');
  client = new LanguageClient('nvtxtc', 'nvtxtc', { command, args: ['lsp'] }, {
    documentSelector: [{ language: 'nvtxt' }],
    initializationOptions: current(),
  });
  context.subscriptions.push(vscode.workspace.onDidChangeConfiguration(e => {
    if (e.affectsConfiguration('nvtxtc') && client)
      client.sendNotification('workspace/didChangeConfiguration', { settings: { nvtxtc: current() } });
  }));
  await client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
