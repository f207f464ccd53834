-- tests/lsp/nvim.lua - Neovim's built-in LSP client against `nvtxtc lsp`
-- (run headless by tests/lsp.t).  Opens $NVTXT_FILE, waits for the
-- diagnostics, applies the quick fix of the first one, asks for hover,
-- definition and formatting, and writes what it saw to $NVTXT_OUT:
--   diag LINE:COL: SEVERITY: MESSAGE [CODE]   (1-based, COL in bytes, as lint prints)
--   fixed LINE TEXT                            (the line after the quick fix)
--   hover TEXT                                 (first line of the hover)
--   definition LINE                            (1-based)
--   buffer                                     (then the buffer after formatting)
-- Any failure writes "error MESSAGE" and quits with status 1 (tests/lsp/nvim-common.lua).
local T = dofile(debug.getinfo(1, 'S').source:sub(2):gsub('[^/]*$', '') .. 'nvim-common.lua')
local out, fail = T.out, T.fail
T.run(function()
  local buf, id = T.start()
  if vim.bo[buf].filetype ~= 'nvtxt' then fail('filetype is "' .. vim.bo[buf].filetype .. '", not nvtxt (ftdetect)') end
  if not vim.wait(10000, function() return #vim.diagnostic.get(buf) > 0 end, 20) then fail('no diagnostics') end
  local diags = vim.diagnostic.get(buf)
  table.sort(diags, function(a, b) return a.lnum < b.lnum or (a.lnum == b.lnum and a.col < b.col) end)
  local sev = { [1] = 'error', [2] = 'warning', [3] = 'info', [4] = 'hint' }
  for _, d in ipairs(diags) do
    local code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code) or '?'
    out:write(string.format('diag %d:%d: %s: %s [%s]\n', d.lnum + 1, d.col + 1, sev[d.severity], d.message, code))
  end
  local client = vim.lsp.get_client_by_id(id)
  local enc = client.offset_encoding or 'utf-16'
  out:write('encoding ' .. enc .. '\n')

  -- the quick fix of the first diagnostic that has one, applied as :lua vim.lsp.buf.code_action() would
  local first = nil
  for _, d in ipairs(diags) do if d.code == 'unknown-command' then first = d end end
  if not first then fail('no unknown-command diagnostic') end
  -- the range back in the client's encoding (Neovim keeps byte columns)
  local function char(lnum, col)
    local line = vim.api.nvim_buf_get_lines(buf, lnum, lnum + 1, false)[1] or ''
    if enc == 'utf-8' then return col end
    local _, u16 = vim.str_utfindex(line, col)
    return u16
  end
  local range = { start = { line = first.lnum, character = char(first.lnum, first.col) },
    ['end'] = { line = first.end_lnum, character = char(first.end_lnum, first.end_col) } }
  local params = { textDocument = { uri = vim.uri_from_bufnr(buf) },
    range = range, context = { diagnostics = { { range = range, message = first.message, code = first.code } } } }
  local res = vim.lsp.buf_request_sync(buf, 'textDocument/codeAction', params, 5000)
  local applied = false
  for _, r in pairs(res or {}) do
    for _, action in ipairs(r.result or {}) do
      if action.kind == 'quickfix' and not applied then
        vim.lsp.util.apply_workspace_edit(action.edit, enc)
        applied = true
      end
    end
  end
  if not applied then fail('no quick fix offered') end
  out:write(string.format('fixed %d %s\n', first.lnum + 1, vim.api.nvim_buf_get_lines(buf, first.lnum, first.lnum + 1, false)[1]))

  -- hover on $Pid in the line of RangePush, and definition of it
  local lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
  local row, col
  for i, l in ipairs(lines) do
    local c = l:find('$Pid, 7, $Label', 1, true)
    if c then row, col = i - 1, c end
  end
  if not row then fail('no $Pid line') end
  -- the position in the client's encoding: the line is ASCII up to there
  local pos = { textDocument = { uri = vim.uri_from_bufnr(buf) }, position = { line = row, character = col } }
  res = vim.lsp.buf_request_sync(buf, 'textDocument/hover', pos, 5000)
  for _, r in pairs(res or {}) do
    if r.result then
      local v = r.result.contents.value or ''
      out:write('hover ' .. v:gsub('\n.*', '') .. '\n')
      for l in v:gmatch('[^\n]+') do if l:match('^`%$Pid`') then out:write('hover-value ' .. l .. '\n') end end
    end
  end
  res = vim.lsp.buf_request_sync(buf, 'textDocument/definition', pos, 5000)
  for _, r in pairs(res or {}) do
    for _, loc in ipairs(r.result or {}) do out:write('definition ' .. (loc.range.start.line + 1) .. '\n') end
  end

  -- formatting, as :lua vim.lsp.buf.formatting_sync() does
  vim.lsp.buf.formatting_sync(nil, 5000)
  out:write('buffer\n')
  for _, l in ipairs(vim.api.nvim_buf_get_lines(buf, 0, -1, false)) do out:write(l .. '\n') end
end)
