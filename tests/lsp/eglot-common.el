;;; eglot-common.el --- what the eglot tests of `nvtxtc lsp' share  -*- lexical-binding: t -*-

;; Loaded by tests/lsp/eglot-test.el and tests/lsp/eglot-features.el (run
;; by tests/lsp-eglot.t): the lines they write to NVTXT_OUT, the "error
;; MESSAGE" line and exit status 1 of a failure, and a wait on the event
;; loop while the server answers.

(require 'cl-lib)
(require 'eglot)
(require 'nvtxt-mode)

(defvar nvtxt-test-out (getenv "NVTXT_OUT"))
(defvar nvtxt-test-lines nil)

(defun nvtxt-test-say (fmt &rest args)
  (push (apply #'format fmt args) nvtxt-test-lines))

(defun nvtxt-test-write ()
  (with-temp-file nvtxt-test-out
    (set-buffer-file-coding-system 'utf-8-unix)
    (dolist (l (reverse nvtxt-test-lines)) (insert l "\n"))))

(defun nvtxt-test-fail (msg &rest args)
  (nvtxt-test-say "error %s" (apply #'format msg args))
  (nvtxt-test-write)
  (kill-emacs 1))

(defun nvtxt-test-wait (pred seconds)
  "Run the event loop until PRED holds or SECONDS pass; PRED's value."
  (let ((end (+ (float-time) seconds)) v)
    (while (and (not (setq v (funcall pred))) (< (float-time) end))
      (accept-process-output nil 0.05))
    v))

(provide 'eglot-common)
;;; eglot-common.el ends here
