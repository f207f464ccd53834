-- tests/lsp/nvim-common.lua - what tests/lsp/nvim.lua and
-- tests/lsp/nvim-features.lua share: their output file ($NVTXT_OUT), the
-- "error MESSAGE" line and status 1 of a failure, and `nvtxtc lsp`
-- ($NVTXTC) started by Neovim 0.7's client on $NVTXT_FILE.
--   local T = dofile(<this file>)
--   T.run(function() local buf, id = T.start(init_options) ... T.out:write(...) end)
local T = {}
T.out = assert(io.open(os.getenv('NVTXT_OUT'), 'w'))

function T.fail(msg)
  T.out:write('error ' .. msg .. '\n'); T.out:close(); vim.cmd('cquit 1')
end

-- Opens $NVTXT_FILE and attaches a new client of `$NVTXTC lsp` to it: the buffer and the client's id.
function T.start(init_options)
  vim.cmd('edit ' .. vim.fn.fnameescape(os.getenv('NVTXT_FILE')))
  local buf = vim.api.nvim_get_current_buf()
  local id = vim.lsp.start_client({ name = 'nvtxtc', cmd = { os.getenv('NVTXTC'), 'lsp' },
    root_dir = vim.fn.getcwd(), init_options = init_options })
  if not id then T.fail('the client did not start') end
  vim.lsp.buf_attach_client(buf, id)
  return buf, id
end

-- Runs body; then quits with status 0, or writes "error MESSAGE" and quits with 1.
function T.run(body)
  local ok, err = pcall(body)
  if not ok then T.fail(tostring(err)) end
  T.out:close()
  vim.cmd('qall!')
end

return T
