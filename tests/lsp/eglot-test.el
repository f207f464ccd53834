;;; eglot-test.el --- Emacs' eglot against `nvtxtc lsp' (run by tests/lsp-eglot.t)  -*- lexical-binding: t -*-

;; emacs --batch -Q -l tests/lsp/eglot-test.el, with editors/emacs/ and
;; eglot's directory on the load path, `nvtxtc' on PATH, and
;; NVTXT_FILE (a copy of tests/lsp/sample.nvtxt) and NVTXT_OUT set.
;; Opens the file in nvtxt-mode (editors/emacs/nvtxt-mode.el, whose
;; eglot-server-programs entry starts the server), and writes to NVTXT_OUT:
;;   mode MODE                              the major mode of the file
;;   face TOKEN: FACE                       nvtxt-mode's highlighting of a token
;;   diag LINE:COL: TYPE: MESSAGE [CODE]    Flymake's diagnostics (COL in bytes, as lint prints)
;;   hover-value LINE / hover LINE          eldoc's hover text on $Pid
;;   candidates C...                        completion candidates for "Ra" at a line start
;;   completed LINE                         a line after completion-at-point of "RangeSt"
;;   fixed LINE TEXT                        the line after the quick fix (eglot-code-actions)
;;   imenu NAME                             the outline's entries (imenu, from documentSymbol)
;;   exit STATUS CODE                       how the server ended after eglot-shutdown
;;   stderr-bytes N                         what the server wrote to standard error
;;   error-responses N                      error responses in eglot's events log
;;   buffer                                 then the buffer after eglot-format-buffer
;; Any failure writes "error MESSAGE" and exits with status 1 (eglot-common.el).

(require 'cl-lib)

(load (expand-file-name "eglot-common" (file-name-directory load-file-name)) nil t)

(defun nvtxt-test-byte-col (pos)
  "The 1-based column of POS in bytes, as nvtxtc lint counts."
  (1+ (string-bytes (buffer-substring-no-properties (line-beginning-position) pos))))

(defun nvtxt-test-find (text)
  "Point at the start of the first TEXT in the buffer."
  (goto-char (point-min))
  (unless (search-forward text nil t) (nvtxt-test-fail "no %S in the buffer" text))
  (goto-char (match-beginning 0)))

(defun nvtxt-test-faces ()
  (font-lock-ensure)
  (dolist (token '("a file" "SetFileDisplayName" "\"Frame" "41237" "Pid =" "$Pid" "Qpc"
                   "@RangePush" "ProcessId"))
    (nvtxt-test-find token)
    (nvtxt-test-say "face %s: %s" token (get-text-property (point) 'face))))

(defun nvtxt-test-diagnostics ()
  (let ((diags nil))
    (nvtxt-test-wait (lambda ()
                       (flymake-start)
                       (setq diags (flymake-diagnostics)))
                     20)
    (unless diags (nvtxt-test-fail "no diagnostics in Flymake"))
    (setq diags (sort diags (lambda (a b) (< (flymake-diagnostic-beg a) (flymake-diagnostic-beg b)))))
    (dolist (d diags)
      (let ((text (flymake-diagnostic-text d))
            (type (pcase (flymake-diagnostic-type d)
                    ('eglot-error "error") ('eglot-warning "warning") (_ "note"))))
        ;; eglot shows "SOURCE [CODE]: MESSAGE"; lint prints "MESSAGE [CODE]"
        (unless (string-match "\\`nvtxtc \\[\\([a-z-]+\\)\\]: \\([^\n]*\\)" text)
          (nvtxt-test-fail "diagnostic text %S is not \"nvtxtc [CODE]: MESSAGE\"" text))
        (let ((code (match-string 1 text)) (msg (match-string 2 text)))
          (save-excursion
            (goto-char (flymake-diagnostic-beg d))
            (nvtxt-test-say "diag %d:%d: %s: %s [%s]" (line-number-at-pos) (nvtxt-test-byte-col (point))
                            type msg code)))))))

(defun nvtxt-test-hover ()
  (nvtxt-test-find "$Pid, 7, $Label")
  (forward-char 1)
  (let ((info nil))
    (eglot-hover-eldoc-function (lambda (doc &rest _) (setq info (or doc ""))))
    (unless (nvtxt-test-wait (lambda () info) 10) (nvtxt-test-fail "no hover"))
    (setq info (substring-no-properties info))
    (nvtxt-test-say "hover %s" (car (split-string info "\n")))
    (dolist (l (split-string info "\n"))
      (when (string-prefix-p "`$Pid`" l) (nvtxt-test-say "hover-value %s" l)))))

(defun nvtxt-test-completion ()
  (goto-char (point-max))
  (let ((start (point)))
    (insert "Ra")
    (let* ((capf (eglot-completion-at-point))
           (cands (and capf (all-completions (buffer-substring-no-properties (nth 0 capf) (nth 1 capf))
                                             (nth 2 capf)))))
      (nvtxt-test-say "candidates %s" (string-join (sort (mapcar #'substring-no-properties cands) #'string<) " ")))
    (insert "ngeSt")
    (let ((completion-at-point-functions (list #'eglot-completion-at-point)))
      (completion-at-point))
    (nvtxt-test-say "completed %s" (buffer-substring-no-properties start (point-max)))
    (delete-region start (point-max))))

(defun nvtxt-test-quick-fix ()
  (nvtxt-test-find "marker, 100")
  (let ((line (line-number-at-pos)))
    (eglot-code-actions (line-beginning-position) (line-end-position) "quickfix" t)
    (nvtxt-test-say "fixed %d %s" line
                    (buffer-substring-no-properties (line-beginning-position) (line-end-position)))))

(defun nvtxt-test-imenu ()
  (let ((index (funcall imenu-create-index-function)))
    (cl-labels ((walk (items)
                  (dolist (it items)
                    (if (imenu--subalist-p it)
                        (walk (cdr it))
                      (nvtxt-test-say "imenu %s" (substring-no-properties (car it)))))))
      (walk index))))

(defun nvtxt-test-shutdown (server)
  (let* ((proc (jsonrpc--process server))
         (events (jsonrpc-events-buffer server))
         (stderr (jsonrpc-stderr-buffer server)))
    ;; eglot-shutdown sends shutdown and exit, then deletes the process at
    ;; once (jsonrpc-shutdown): give the server the time to end by itself,
    ;; so that its own exit status is the one seen.
    (advice-add 'delete-process :before
                (lambda (&rest _) (nvtxt-test-wait (lambda () (not (process-live-p proc))) 5))
                '((name . nvtxt-test-let-it-exit)))
    (eglot-shutdown server nil 10 t)
    (advice-remove 'delete-process 'nvtxt-test-let-it-exit)
    (nvtxt-test-say "exit %s %s" (process-status proc) (process-exit-status proc))
    (nvtxt-test-say "stderr-bytes %d"
                    (if (buffer-live-p stderr)
                        ;; Emacs' own line when the pipe closes is not the server's
                        (let ((s (replace-regexp-in-string
                                  "\n?Process .* stderr finished\n" ""
                                  (with-current-buffer stderr (buffer-string)))))
                          (unless (string= s "") (nvtxt-test-say "stderr-text %s" s))
                          (string-bytes s))
                      0))
    (nvtxt-test-say "error-responses %d"
                    (with-current-buffer events
                      ;; jsonrpc logs "[server-reply] (id:N) ERROR TIME:"
                      (how-many "^\\[server-reply\\] (id:[^)]*) ERROR" (point-min) (point-max))))))

(condition-case err
    (progn
      (setq eglot-sync-connect 10 eglot-connect-timeout 20)
      (find-file (getenv "NVTXT_FILE"))
      (nvtxt-test-say "mode %s" major-mode)
      (nvtxt-test-faces)
      (apply #'eglot (eglot--guess-contact))
      (let ((server (eglot-current-server)))
        (unless server (nvtxt-test-fail "eglot did not connect"))
        (nvtxt-test-diagnostics)
        (nvtxt-test-hover)
        (nvtxt-test-completion)
        (nvtxt-test-quick-fix)
        (nvtxt-test-imenu)
        (eglot-format-buffer)
        (let ((text (buffer-substring-no-properties (point-min) (point-max))))
          (nvtxt-test-shutdown server)
          (nvtxt-test-say "buffer")
          (push (string-remove-suffix "\n" text) nvtxt-test-lines))))
  (error (nvtxt-test-fail "%s" (error-message-string err))))
(nvtxt-test-write)
(kill-emacs 0)
