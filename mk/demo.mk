# demo: make demo, every example through lint, the normal form, the payload
# and (with the NVTX headers) replay (read by the Makefile)

demo: nvtxtc $(CHECK_DEPS)
	@for f in examples/*.nvtxt; do \
		echo "== nvtxtc lint $$f"; ./nvtxtc lint $$f || exit 1; \
		echo "== nvtxtc --emit=nvtxt $$f (first lines)"; \
		./nvtxtc --emit=nvtxt $$f > $(B)/demo.out || exit 1; head -n 5 $(B)/demo.out; \
	done
	@for f in examples/*.nvtxt; do \
		echo "== nvtxtc --emit=payload $$f; nvtxtc dump (first lines)"; \
		./nvtxtc --emit=payload -o $(B)/demo.payload $$f 2>/dev/null || exit 1; \
		echo "   $$(wc -c < $$f) bytes of NVTXT -> $$(wc -c < $(B)/demo.payload) bytes of payload"; \
		./nvtxtc dump $(B)/demo.payload | head -n 3; \
		$(if $(NVTX_CPPFLAGS),echo "== nvtxtc replay under $(RECORDER)"; \
		NVTX_INJECTION64_PATH=$$PWD/$(RECORDER) NVTXT_RECORDER_OUT=$(B)/demo.rec \
			./nvtxtc replay $(B)/demo.payload || exit 1; \
		./nvtxtc --emit=nvtxt $$f 2>/dev/null | cmp -s - $(B)/demo.rec || exit 1; \
		echo "   the tool received the normal form of $$f";) \
	done
	@echo "demo: every example lints clean and has a normal form"

.PHONY: demo
