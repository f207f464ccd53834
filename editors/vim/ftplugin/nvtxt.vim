" Vim/Neovim filetype plugin for NVTXT (nvtxt(5)), from nvtxtc.
if exists("b:did_ftplugin")
  finish
endif
let b:did_ftplugin = 1
setlocal commentstring=#\ %s comments=:#
compiler nvtxtc
let b:undo_ftplugin = "setlocal commentstring< comments< makeprg< errorformat<"
