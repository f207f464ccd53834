-- tests/lsp/nvim-features.lua - the editor features of `nvtxtc lsp`
-- (issue 23) in Neovim's built-in LSP client, run headless by tests/lsp.t.
-- Opens $NVTXT_FILE, asks what $NVTXT_QUERIES lists (the format is in
-- tests/lsp/features.queries) and writes to $NVTXT_OUT what Neovim shows,
-- in the form of tests/lsp/features.expected.  Signature help and document
-- highlights, references and rename go through Neovim's own
-- vim.lsp.buf.signature_help(), document_highlight() (the highlights are
-- read back from the buffer's extmarks), references() (the quickfix list)
-- and rename(NEW) (prepareRename, then the edit applied to the buffer);
-- Neovim 0.7 has no function for the other requests,
-- which go through vim.lsp.buf_request_sync.
-- Any failure writes "error MESSAGE" and quits with status 1 (tests/lsp/nvim-common.lua).
local T = dofile(debug.getinfo(1, 'S').source:sub(2):gsub('[^/]*$', '') .. 'nvim-common.lua')
local out, fail = T.out, T.fail
T.run(function()
  local buf, id = T.start({ inlayHints = { times = true } })
  local client
  if not vim.wait(10000, function()
    client = vim.lsp.get_client_by_id(id)
    return client and client.initialized
  end, 20) then fail('the client did not initialize') end
  local enc = client.offset_encoding or 'utf-16'
  local legend = client.server_capabilities.semanticTokensProvider.legend
  local lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
  local uri = vim.uri_from_bufnr(buf)

  -- positions: byte columns (1-based) <-> the client's encoding
  local function char(line, bytecol)
    if enc == 'utf-8' then return bytecol - 1 end
    local _, u16 = vim.str_utfindex(lines[line], bytecol - 1)
    return u16
  end
  local function at(p)
    local col = p.character
    if enc ~= 'utf-8' then col = vim.str_byteindex(lines[p.line + 1] or '', col, true) end
    return string.format('%d:%d', p.line + 1, col + 1)
  end
  local function range(r) return at(r.start) .. '-' .. at(r['end']) end
  local function request(method, params)
    params.textDocument = { uri = uri }
    local res, e = vim.lsp.buf_request_sync(buf, method, params, 5000)
    if not res then fail(method .. ': ' .. tostring(e)) end
    for _, r in pairs(res) do
      if r.err then fail(method .. ': ' .. vim.inspect(r.err)) end
      return r.result
    end
  end
  local function line_range(a, b)
    return { start = { line = a - 1, character = 0 }, ['end'] = { line = b - 1, character = char(b, #lines[b] + 1) } }
  end

  -- "token LINE:COL-COL TYPE.MODIFIERS" for each token of SemanticTokens.data
  local function tokens(data)
    local r, line, ch = {}, 0, 0
    for i = 1, #data, 5 do
      local dl, dc, len, ty, mods = data[i], data[i + 1], data[i + 2], data[i + 3], data[i + 4]
      if dl > 0 then ch = 0 end
      line, ch = line + dl, ch + dc
      local name = legend.tokenTypes[ty + 1]
      for k, m in ipairs(legend.tokenModifiers) do
        if math.floor(mods / 2 ^ (k - 1)) % 2 == 1 then name = name .. '.' .. m end
      end
      local b = at({ line = line, character = ch + len })
      r[#r + 1] = string.format('token %s-%s %s', at({ line = line, character = ch }), b:gsub('^%d+:', ''), name)
    end
    return r
  end
  -- SemanticTokensEdit[] applied as LSP 3.17 says (offsets into the old data)
  local function apply_edits(data, edits)
    local r = vim.deepcopy(data)
    table.sort(edits, function(a, b) return a.start > b.start end)
    for _, e in ipairs(edits) do
      for _ = 1, e.deleteCount do table.remove(r, e.start + 1) end
      for k, v in ipairs(e.data or {}) do table.insert(r, e.start + k, v) end
    end
    return r
  end

  -- signature help as :lua vim.lsp.buf.signature_help() asks for it
  local sig_result = nil
  vim.lsp.handlers['textDocument/signatureHelp'] = function(_, result) sig_result = result or vim.NIL end
  local ns = vim.api.nvim_create_namespace('vim_lsp_references')

  for q in io.lines(os.getenv('NVTXT_QUERIES')) do
    local w = vim.split(q, ' ', { plain = true })
    if q:sub(1, 1) == '#' or q == '' then
      -- a comment
    elseif w[1] == 'hints' then
      for _, h in ipairs(request('textDocument/inlayHint', { range = line_range(tonumber(w[2]), tonumber(w[3])) })) do
        out:write('hint ' .. at(h.position) .. ' ' .. h.label .. '\n')
      end
    elseif w[1] == 'signature' then
      vim.api.nvim_win_set_cursor(0, { tonumber(w[2]), tonumber(w[3]) - 1 })
      sig_result = nil
      vim.lsp.buf.signature_help()
      if not vim.wait(5000, function() return sig_result ~= nil end, 10) then fail('no signature help') end
      local name = '-'
      if sig_result ~= vim.NIL then
        local sig = sig_result.signatures[(sig_result.activeSignature or 0) + 1]
        local p = sig.parameters[(sig_result.activeParameter or 0) + 1]
        if p then name = sig.label:sub(p.label[1] + 1, p.label[2]) end
      end
      out:write(string.format('signature %s:%s %s\n', w[2], w[3], name))
    elseif w[1] == 'highlight' then
      vim.lsp.buf.clear_references()
      vim.api.nvim_win_set_cursor(0, { tonumber(w[2]), tonumber(w[3]) - 1 })
      vim.lsp.buf.document_highlight()
      local marks
      if not vim.wait(5000, function()
        marks = vim.api.nvim_buf_get_extmarks(buf, ns, 0, -1, { details = true })
        return #marks > 0
      end, 10) then fail('no highlights at ' .. w[2] .. ':' .. w[3]) end
      for _, m in ipairs(marks) do
        out:write(string.format('highlight %s:%s %d:%d-%d:%d\n', w[2], w[3], m[2] + 1, m[3] + 1,
          (m[4].end_row or m[2]) + 1, (m[4].end_col or m[3]) + 1))
      end
    elseif w[1] == 'folds' then
      local folds = request('textDocument/foldingRange', {})
      table.sort(folds, function(a, b) return a.startLine < b.startLine end)
      for _, f in ipairs(folds) do
        out:write(string.format('fold %d-%d %s\n', f.startLine + 1, f.endLine + 1, f.kind or '-'))
      end
    elseif w[1] == 'colors' or w[1] == 'presentation' then
      for _, c in ipairs(request('textDocument/documentColor', {})) do
        local hex = string.format('0x%02X%02X%02X%02X', math.floor(c.color.alpha * 255 + 0.5),
          math.floor(c.color.red * 255 + 0.5), math.floor(c.color.green * 255 + 0.5), math.floor(c.color.blue * 255 + 0.5))
        if w[1] == 'colors' then
          out:write('color ' .. range(c.range) .. ' ' .. hex .. '\n')
        elseif at(c.range.start) == w[2] .. ':' .. w[3] then
          local v = tonumber(w[4]:sub(3), 16)
          local color = { alpha = math.floor(v / 16777216) / 255, red = math.floor(v / 65536) % 256 / 255,
            green = math.floor(v / 256) % 256 / 255, blue = v % 256 / 255 }
          local p = request('textDocument/colorPresentation', { color = color, range = c.range })
          out:write(string.format('presentation %s:%s %s\n', w[2], w[3], p[1].textEdit and p[1].textEdit.newText or '-'))
        end
      end
    elseif w[1] == 'tokens' then
      local r = request('textDocument/semanticTokens/range', { range = line_range(tonumber(w[2]), tonumber(w[3])) })
      for _, t in ipairs(tokens(r.data)) do out:write(t .. '\n') end
    elseif w[1] == 'delta' then
      -- TEXT typed into the buffer at LINE:COL and taken back (Neovim sends
      -- the didChange), each followed by full/delta
      local l, c, t, tag = tonumber(w[2]), tonumber(w[3]), w[4], 'delta ' .. w[2] .. ':' .. w[3]
      local first = request('textDocument/semanticTokens/full', {})
      vim.api.nvim_buf_set_text(buf, l - 1, c - 1, l - 1, c - 1, { t })
      lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
      local d = request('textDocument/semanticTokens/full/delta', { previousResultId = first.resultId })
      if not d.edits then fail('full/delta answered without edits') end
      local data = apply_edits(first.data, d.edits)
      for _, x in ipairs(tokens(data)) do
        if x:find('^token ' .. w[2] .. ':') then out:write(tag .. ' +' .. t .. ' ' .. x .. '\n') end
      end
      local full = request('textDocument/semanticTokens/full', {})
      out:write(string.format('%s +%s edits applied = full: %s\n', tag, t, tostring(vim.deep_equal(data, full.data))))
      vim.api.nvim_buf_set_text(buf, l - 1, c - 1, l - 1, c - 1 + #t, { '' })
      lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
      local back = request('textDocument/semanticTokens/full/delta', { previousResultId = full.resultId })
      out:write(string.format('%s -%s edits applied = first full: %s\n', tag, t,
        tostring(vim.deep_equal(apply_edits(full.data, back.edits), first.data))))
    elseif w[1] == 'references' then
      vim.api.nvim_win_set_cursor(0, { tonumber(w[2]), tonumber(w[3]) - 1 })
      vim.fn.setqflist({}, 'r', { items = {} })
      vim.lsp.buf.references({ includeDeclaration = true })
      if not vim.wait(5000, function() return #vim.fn.getqflist() > 0 end, 10) then fail('no references') end
      for _, it in ipairs(vim.fn.getqflist()) do
        out:write(string.format('references %s:%s %d:%d\n', w[2], w[3], it.lnum, it.col))
      end
      vim.cmd('cclose')
      vim.api.nvim_set_current_buf(buf)
    elseif w[1] == 'rename' then
      -- as :lua vim.lsp.buf.rename(NEW) does (prepareRename, then rename and its edit)
      vim.api.nvim_win_set_cursor(0, { tonumber(w[2]), tonumber(w[3]) - 1 })
      local before = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
      local orig, done, rerr = vim.lsp.handlers['textDocument/rename'], false, nil
      vim.lsp.handlers['textDocument/rename'] = function(e, result, ctx, config)
        rerr = e
        orig(e, result, ctx, config)
        done = true
      end
      vim.lsp.buf.rename(w[4])
      if not vim.wait(5000, function() return done end, 10) then fail('no answer to rename') end
      vim.lsp.handlers['textDocument/rename'] = orig
      if rerr then
        out:write(string.format('rename %s:%s %s refused %s\n', w[2], w[3], w[4], rerr.message))
      else
        out:write(string.format('rename %s:%s %s\n', w[2], w[3], w[4]))
        lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
        for i, l in ipairs(lines) do
          if l ~= before[i] then out:write(string.format('renamed %d %s\n', i, l)) end
        end
      end
    else
      fail('unknown query ' .. q)
    end
  end
end)
