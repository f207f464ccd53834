;;; eglot-features.el --- the editor features of `nvtxtc lsp' under Emacs' eglot  -*- lexical-binding: t -*-

;; Run by tests/lsp-eglot.t: emacs --batch -Q -l tests/lsp/eglot-features.el,
;; with editors/emacs/ and eglot's directory on the load path, `nvtxtc' on
;; PATH, and NVTXT_FILE (a copy of tests/lsp/features.nvtxt), NVTXT_QUERIES
;; (tests/lsp/features.queries) and NVTXT_OUT set.  Asks what the queries
;; list and writes what eglot shows, in the form of
;; tests/lsp/features.expected.  Signature help goes through eglot's eldoc
;; function (eglot-signature-eldoc-function: the active parameter is the
;; one whose documentation it shows), highlights through the overlays
;; eglot makes (the request eglot sends along with hover), references
;; through eglot's xref backend and renames through eglot-rename; eglot 1.9 (Debian
;; 12) has no command for the other requests, which go through
;; jsonrpc-request with eglot's own position conversions.  The settings go
;; through eglot-workspace-configuration (inlayHints.times on).
;; Any failure writes "error MESSAGE" and exits with status 1 (eglot-common.el).

(require 'cl-lib)
(require 'subr-x)

(load (expand-file-name "eglot-common" (file-name-directory load-file-name)) nil t)

(defun nvtxt-test-goto (line col)
  "Point at LINE (1-based) and byte column COL (1-based)."
  (goto-char (point-min))
  (forward-line (1- line))
  (let ((start (point)))
    (while (< (string-bytes (buffer-substring-no-properties start (point))) (1- col))
      (forward-char 1))))

(defun nvtxt-test-at (pos)
  "LINE:COL of buffer position POS, COL in bytes (1-based)."
  (save-excursion
    (goto-char pos)
    (format "%d:%d" (line-number-at-pos)
            (1+ (string-bytes (buffer-substring-no-properties (line-beginning-position) pos))))))

(defun nvtxt-test-lsp-at (lsp-pos)
  (nvtxt-test-at (eglot--lsp-position-to-point lsp-pos)))

(defun nvtxt-test-range (range)
  (let ((r (eglot--range-region range)))
    (format "%s-%s" (nvtxt-test-at (car r)) (nvtxt-test-at (cdr r)))))

(defun nvtxt-test-request (method &rest params)
  (jsonrpc-request (eglot--current-server-or-lose) method
                   (append (list :textDocument (eglot--TextDocumentIdentifier)) params)))

(defun nvtxt-test-line-range (a b)
  (save-excursion
    (list :start (progn (nvtxt-test-goto a 1) (eglot--pos-to-lsp-position))
          :end (progn (nvtxt-test-goto b 1) (eglot--pos-to-lsp-position (line-end-position))))))

(defun nvtxt-test-signature (line col)
  (nvtxt-test-goto line col)
  (let ((info nil))
    (eglot-signature-eldoc-function (lambda (doc &rest _) (setq info (or doc 'none))))
    (unless (nvtxt-test-wait (lambda () info) 10) (nvtxt-test-fail "no signature help at %d:%d" line col))
    ;; eglot shows the active parameter's documentation on a line of its own: "NAME: DOC"
    (let ((second (and (stringp info) (cadr (split-string (substring-no-properties info) "\n")))))
      (nvtxt-test-say "signature %d:%d %s" line col
                      (if (and second (string-match "\\`\\([A-Za-z]+\\): " second)) (match-string 1 second) "-")))))

(defun nvtxt-test-highlight (line col)
  (mapc #'delete-overlay eglot--highlights)
  (setq eglot--highlights nil)
  (nvtxt-test-goto line col)
  (eglot--highlight-piggyback nil)
  (unless (nvtxt-test-wait (lambda () eglot--highlights) 10)
    (nvtxt-test-fail "no highlights at %d:%d" line col))
  (dolist (ov (sort (copy-sequence eglot--highlights) (lambda (a b) (< (overlay-start a) (overlay-start b)))))
    (nvtxt-test-say "highlight %d:%d %s-%s" line col (nvtxt-test-at (overlay-start ov))
                    (nvtxt-test-at (overlay-end ov)))))

(defun nvtxt-test-hex (c)
  (format "0x%02X%02X%02X%02X" (round (* 255 (plist-get c :alpha))) (round (* 255 (plist-get c :red)))
          (round (* 255 (plist-get c :green))) (round (* 255 (plist-get c :blue)))))

(defun nvtxt-test-colors (&optional line col argb)
  (let ((want (and line (format "%d:%d" line col))))
    (seq-doseq (c (nvtxt-test-request :textDocument/documentColor))
      (let ((range (plist-get c :range)))
        (cond ((not want)
               (nvtxt-test-say "color %s %s" (nvtxt-test-range range) (nvtxt-test-hex (plist-get c :color))))
              ((equal want (nvtxt-test-lsp-at (plist-get range :start)))
               (let* ((v (string-to-number (substring argb 2) 16))
                      (color (list :red (/ (logand (ash v -16) 255) 255.0) :green (/ (logand (ash v -8) 255) 255.0)
                                   :blue (/ (logand v 255) 255.0) :alpha (/ (ash v -24) 255.0)))
                      (p (aref (nvtxt-test-request :textDocument/colorPresentation :color color :range range) 0)))
                 (nvtxt-test-say "presentation %s %s" want
                                 (or (plist-get (plist-get p :textEdit) :newText) "-")))))))))

(defun nvtxt-test-token-lines (data legend)
  "\"token LINE:COL-COL TYPE.MODIFIERS\" for each token of SemanticTokens DATA."
  (let ((types (plist-get legend :tokenTypes)) (mods (plist-get legend :tokenModifiers))
        (line 0) (ch 0) (out nil))
    (cl-loop for i from 0 below (length data) by 5 do
             (let ((dl (aref data i)) (dc (aref data (+ i 1))) (len (aref data (+ i 2)))
                   (ty (aref data (+ i 3))) (m (aref data (+ i 4))) (name nil))
               (when (> dl 0) (setq ch 0))
               (setq line (+ line dl) ch (+ ch dc))
               (setq name (aref types ty))
               (dotimes (k (length mods))
                 (when (/= 0 (logand m (ash 1 k))) (setq name (concat name "." (aref mods k)))))
               (push (format "token %s-%s %s" (nvtxt-test-lsp-at (list :line line :character ch))
                             (replace-regexp-in-string
                              "\\`[0-9]+:" "" (nvtxt-test-lsp-at (list :line line :character (+ ch len))))
                             name)
                     out)))
    (nreverse out)))

(defun nvtxt-test-tokens (a b legend)
  (let ((r (nvtxt-test-request :textDocument/semanticTokens/range :range (nvtxt-test-line-range a b))))
    (dolist (l (nvtxt-test-token-lines (plist-get r :data) legend)) (nvtxt-test-say "%s" l))))

(defun nvtxt-test-apply-edits (data edits)
  "SemanticTokensEdit EDITS applied to DATA as LSP 3.17 says (offsets into the old DATA)."
  (let ((r (append data nil)))
    (dolist (e (sort (append edits nil) (lambda (x y) (> (plist-get x :start) (plist-get y :start)))))
      (let ((start (plist-get e :start)))
        (setq r (append (seq-take r start) (append (plist-get e :data) nil)
                        (nthcdr (+ start (plist-get e :deleteCount)) r)))))
    r))

(defun nvtxt-test-delta (line col text legend)
  "TEXT typed at LINE:COL and taken back (eglot sends the didChange), each followed by full/delta."
  (let* ((tag (format "delta %d:%d" line col))
         (first (nvtxt-test-request :textDocument/semanticTokens/full))
         d data full back)
    (nvtxt-test-goto line col)
    (insert text)
    (eglot--signal-textDocument/didChange)
    (setq d (nvtxt-test-request :textDocument/semanticTokens/full/delta :previousResultId (plist-get first :resultId)))
    (unless (plist-member d :edits) (nvtxt-test-fail "full/delta answered without edits"))
    (setq data (nvtxt-test-apply-edits (plist-get first :data) (plist-get d :edits)))
    (dolist (l (nvtxt-test-token-lines (vconcat data) legend))
      (when (string-prefix-p (format "token %d:" line) l) (nvtxt-test-say "%s +%s %s" tag text l)))
    (setq full (nvtxt-test-request :textDocument/semanticTokens/full))
    (nvtxt-test-say "%s +%s edits applied = full: %s" tag text (if (equal data (append (plist-get full :data) nil)) "true" "false"))
    (nvtxt-test-goto line col)
    (delete-char (length text))
    (eglot--signal-textDocument/didChange)
    (setq back (nvtxt-test-request :textDocument/semanticTokens/full/delta :previousResultId (plist-get full :resultId)))
    (nvtxt-test-say "%s -%s edits applied = first full: %s" tag text
                    (if (equal (nvtxt-test-apply-edits (plist-get full :data) (plist-get back :edits))
                               (append (plist-get first :data) nil))
                        "true" "false"))))

(defun nvtxt-test-references (line col)
  (nvtxt-test-goto line col)
  (let* ((id (xref-backend-identifier-at-point 'eglot))
         (refs (xref-backend-references 'eglot id))
         (starts (mapcar (lambda (r) (nvtxt-test-at (xref-location-marker (xref-item-location r)))) refs)))
    (unless refs (nvtxt-test-fail "no references at %d:%d" line col))
    (dolist (s (sort starts (lambda (a b)
                              (let ((x (mapcar #'string-to-number (split-string a ":")))
                                    (y (mapcar #'string-to-number (split-string b ":"))))
                                (or (< (car x) (car y)) (and (= (car x) (car y)) (< (cadr x) (cadr y))))))))
      (nvtxt-test-say "references %d:%d %s" line col s))))

(defun nvtxt-test-rename (line col new)
  (nvtxt-test-goto line col)
  (let ((before (split-string (buffer-substring-no-properties (point-min) (point-max)) "\n")))
    (condition-case e
        (progn
          (eglot-rename new)
          (nvtxt-test-say "rename %d:%d %s" line col new)
          (cl-loop for old in before
                   for now in (split-string (buffer-substring-no-properties (point-min) (point-max)) "\n")
                   for i from 1
                   unless (equal old now) do (nvtxt-test-say "renamed %d %s" i now))
          (eglot--signal-textDocument/didChange))
      (jsonrpc-error
       (nvtxt-test-say "rename %d:%d %s refused %s" line col new
                       (alist-get 'jsonrpc-error-message (cdr e)))))))

(defun nvtxt-test-query (q legend)
  (let ((w (split-string q " ")))
    (pcase (car w)
      ("hints"
       (seq-doseq (h (nvtxt-test-request :textDocument/inlayHint
                                         :range (nvtxt-test-line-range (string-to-number (nth 1 w))
                                                                       (string-to-number (nth 2 w)))))
         (nvtxt-test-say "hint %s %s" (nvtxt-test-lsp-at (plist-get h :position)) (plist-get h :label))))
      ("signature" (nvtxt-test-signature (string-to-number (nth 1 w)) (string-to-number (nth 2 w))))
      ("highlight" (nvtxt-test-highlight (string-to-number (nth 1 w)) (string-to-number (nth 2 w))))
      ("folds"
       (let ((folds (append (nvtxt-test-request :textDocument/foldingRange) nil)))
         (dolist (f (sort folds (lambda (a b) (< (plist-get a :startLine) (plist-get b :startLine)))))
           (nvtxt-test-say "fold %d-%d %s" (1+ (plist-get f :startLine)) (1+ (plist-get f :endLine))
                           (or (plist-get f :kind) "-")))))
      ("colors" (nvtxt-test-colors))
      ("presentation" (nvtxt-test-colors (string-to-number (nth 1 w)) (string-to-number (nth 2 w)) (nth 3 w)))
      ("references" (nvtxt-test-references (string-to-number (nth 1 w)) (string-to-number (nth 2 w))))
      ("rename" (nvtxt-test-rename (string-to-number (nth 1 w)) (string-to-number (nth 2 w)) (nth 3 w)))
      ("tokens" (nvtxt-test-tokens (string-to-number (nth 1 w)) (string-to-number (nth 2 w)) legend))
      ("delta" (nvtxt-test-delta (string-to-number (nth 1 w)) (string-to-number (nth 2 w)) (nth 3 w) legend))
      (_ (nvtxt-test-fail "unknown query %s" q)))))

(condition-case err
    (progn
      (setq eglot-sync-connect 10 eglot-connect-timeout 20)
      (setq-default eglot-workspace-configuration '((:nvtxtc . (:inlayHints (:times t)))))
      (find-file (getenv "NVTXT_FILE"))
      (apply #'eglot (eglot--guess-contact))
      (let* ((server (or (eglot-current-server) (nvtxt-test-fail "eglot did not connect")))
             (legend (plist-get (plist-get (eglot--capabilities server) :semanticTokensProvider) :legend))
             (queries (with-temp-buffer
                        (insert-file-contents (getenv "NVTXT_QUERIES"))
                        (split-string (buffer-string) "\n" t))))
        ;; the settings are sent after initialize: wait until the time hints show
        (unless (nvtxt-test-wait
                 (lambda ()
                   (seq-some (lambda (h) (string-prefix-p "+" (plist-get h :label)))
                             (nvtxt-test-request :textDocument/inlayHint
                                                 :range (nvtxt-test-line-range 1 (count-lines (point-min) (point-max))))))
                 10)
          (nvtxt-test-fail "eglot-workspace-configuration did not turn the time hints on"))
        (dolist (q queries)
          (unless (string-prefix-p "#" q) (nvtxt-test-query q legend)))
        (eglot-shutdown server nil 10 t)))
  (error (nvtxt-test-fail "%s" (error-message-string err))))
(nvtxt-test-write)
(kill-emacs 0)
