// editors/vscode/settings.js - the settings the extension sends to
// `nvtxtc lsp` (initializationOptions, and workspace/didChangeConfiguration
// under "nvtxtc"), from VS Code's configuration section "nvtxtc".  No
// `vscode` import, so that tests/vscode.t sends exactly these.
'use strict';

// get(key, default): WorkspaceConfiguration.get of the section "nvtxtc".
function settings(get) {
  return {
    warnings: get('warnings', []),
    maxErrors: get('maxErrors', 0),
    inlayHints: {
      parameterNames: get('inlayHints.parameterNames', true),
      times: get('inlayHints.times', false),
      rangePop: get('inlayHints.rangePop', true),
    },
    timeConversions: get('timeConversions', []),
  };
}

module.exports = { settings };
