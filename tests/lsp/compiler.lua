-- tests/lsp/compiler.lua - `:compiler nvtxtc` and `:make` in Neovim (run
-- by tests/lsp.t): writes makeprg, then each quickfix entry as
-- LINE:COL:TYPE: TEXT to $NVTXT_OUT.
local out = assert(io.open(os.getenv('NVTXT_OUT'), 'w'))
vim.cmd('compiler nvtxtc')
out:write('makeprg ' .. vim.o.makeprg .. '\n')
vim.cmd('silent make')
for _, e in ipairs(vim.fn.getqflist()) do
  if e.valid == 1 then out:write(string.format('%d:%d:%s: %s\n', e.lnum, e.col, e.type, e.text)) end
end
out:close()
vim.cmd('qall!')
