;;; nvtxt-mode.el --- Major mode for NVTXT files, with nvtxtc's language server  -*- lexical-binding: t -*-

;; Part of nvtxtc.  Installed by `make install' in share/emacs/site-lisp/.

;;; Commentary:

;; NVTXT is the text form of NVIDIA NVTX annotations (nvtxt(5)).  This mode
;; opens *.nvtxt files, marks comments (a line whose first non-blank
;; character is `#'; a `#' elsewhere is text), strings ("..." and '...',
;; no escapes), and
;; highlights commands, definitions, assignments, `$Name' expansions,
;; integers and time bases as editors/vim/syntax/nvtxt.vim does.  With
;; eglot, `M-x eglot' (or `eglot-ensure' in `nvtxt-mode-hook') runs
;; `nvtxtc lsp': diagnostics (Flymake), hover, completion, quick fixes,
;; formatting and the outline (imenu).  In your init file:
;;
;;   (require 'nvtxt-mode)
;;   (add-hook 'nvtxt-mode-hook #'eglot-ensure)   ; optional

;;; Code:

(defgroup nvtxt nil
  "NVTXT, the text form of NVTX annotations."
  :group 'languages
  :prefix "nvtxt-")

(defcustom nvtxt-lsp-command '("nvtxtc" "lsp")
  "The language server's command line, for eglot."
  :type '(repeat string))

(defconst nvtxt--commands
  '("Marker" "RangePush" "RangePop" "RangeStartEnd" "NameCategory"
    "AddChildCategory" "NameOsThread" "NameProcess" "SetFileDisplayName")
  "The calls of nvtxt(5), as editors/vim/syntax/nvtxt.vim lists them.")

(defconst nvtxt--arguments
  '("Time" "Start" "End" "TimeBase" "ProcessId" "ThreadId" "CategoryId"
    "Color" "Message" "Payload" "Name" "ParentCategoryId")
  "The argument names that definitions take.")

(defconst nvtxt--time-bases
  '("Qpc" "Rdtsc" "FileTime" "Manual" "Relative" "ClockMonotonicRaw" "CNTVCT")
  "The time bases.")

(defvar nvtxt-mode-syntax-table
  (let ((st (make-syntax-table)))
    ;; `#' starts a comment only at the start of a line: see
    ;; `nvtxt--syntax-propertize'.
    (modify-syntax-entry ?# "." st)
    (modify-syntax-entry ?\n ">" st)
    (modify-syntax-entry ?\" "\"" st)
    (modify-syntax-entry ?' "\"" st)
    ;; strings have no escapes
    (modify-syntax-entry ?\\ "." st)
    (modify-syntax-entry ?_ "_" st)
    (modify-syntax-entry ?$ "'" st)
    (modify-syntax-entry ?@ "'" st)
    st)
  "Syntax table of `nvtxt-mode'.")

(defconst nvtxt--syntax-propertize
  (syntax-propertize-rules
   ;; a comment: the first non-blank character of a line is `#'
   ("^[ \t]*\\(#\\)" (1 "<")))
  "Marks the `#' that starts a comment.")

(defvar nvtxt-font-lock-keywords
  `(("^[ \t]*\\(@[ \t]*[A-Za-z_][A-Za-z0-9_]*\\)"
     (1 font-lock-preprocessor-face)
     (,(regexp-opt nvtxt--arguments 'symbols) nil nil (0 font-lock-type-face)))
    ("^[ \t]*\\([A-Za-z_][A-Za-z0-9_]*\\)[ \t]*=" 1 font-lock-variable-name-face)
    (,(concat "^[ \t]*" (regexp-opt nvtxt--commands 'symbols)) 1 font-lock-keyword-face)
    ("\\$[A-Za-z_][A-Za-z0-9_]*" . font-lock-variable-name-face)
    (,(regexp-opt nvtxt--time-bases 'symbols) . font-lock-constant-face)
    ("\\_<[-+]?\\(?:0[xX][0-9A-Fa-f]+\\|[0-9]+\\)\\_>" . font-lock-constant-face))
  "Highlighting of `nvtxt-mode', as editors/vim/syntax/nvtxt.vim does it.")

;;;###autoload
(define-derived-mode nvtxt-mode prog-mode "NVTXT"
  "Major mode for NVTXT, the text form of NVTX annotations (nvtxt(5)).
With eglot, `nvtxtc lsp' checks, completes and formats the file."
  :syntax-table nvtxt-mode-syntax-table
  (setq-local comment-start "# ")
  (setq-local comment-end "")
  (setq-local comment-start-skip "#+[ \t]*")
  (setq-local comment-use-syntax t)
  (setq-local syntax-propertize-function nvtxt--syntax-propertize)
  (setq-local font-lock-defaults '(nvtxt-font-lock-keywords))
  (setq-local indent-tabs-mode nil))

;;;###autoload
(add-to-list 'auto-mode-alist '("\\.nvtxt\\'" . nvtxt-mode))

(defvar eglot-server-programs)

;;;###autoload
(with-eval-after-load 'eglot
  (add-to-list 'eglot-server-programs
               `(nvtxt-mode . ,(lambda (&rest _) nvtxt-lsp-command))))

(provide 'nvtxt-mode)
;;; nvtxt-mode.el ends here
