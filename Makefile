# nvtxtc - a compiler-style toolchain for NVTXT.
#
#   make            build ./nvtxtc (installs flex and bison when missing and root)
#   make check      the TAP suite, through prove (installs what the tests use
#                   when missing; OFFLINE=1: installs nothing, and their tests skip)
#   make demo       lint and canonical output of every file in examples/
#   make install    PREFIX=/usr/local DESTDIR=  (the binary, libnvtxt with its headers and
#                   nvtxt.pc, the manual pages, bash completion, the editor files)
#
# ./configure (from configure.ac) may write config.mk with the same variables.
#
# This file holds the settings and the lists of sources; the rules are in
# fragments by part, read in this order:
#   mk/build.mk     the generated parser, the objects, libnvtxt, ./nvtxtc
#   mk/tests.mk     unit tests, test tools, injection libraries, check, check-sanitize
#   mk/fuzz.mk      the libFuzzer targets: fuzz-build, fuzz
#   mk/demo.mk      demo
#   mk/install.mk   install, uninstall
#   mk/editors.mk   vsix (the VS Code extension)
#   mk/bench.mk     bench and its generators

-include config.mk

PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
OBJCOPY ?= objcopy
# editor files (nvtxtc(1), EDITORS): Vim's and Neovim's runtime folders, Emacs's
# site-lisp (nvtxt-mode.el), the TextMate grammar
VIMDIR ?= $(PREFIX)/share/vim/vimfiles
NVIMDIR ?= $(PREFIX)/share/nvim/site
LISPDIR ?= $(PREFIX)/share/emacs/site-lisp
DATADIR ?= $(PREFIX)/share/nvtxtc
# where bash-completion looks for completions under PREFIX
BASH_COMPLETIONSDIR ?= $(or $(shell pkg-config --define-variable=prefix=$(PREFIX) \
	--variable=completionsdir bash-completion 2>/dev/null),$(PREFIX)/share/bash-completion/completions)
CC ?= cc
CFLAGS ?= -O2 -g
WARNINGS = -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra
# The pipeline, one folder a stage (README, "Layout"): every header is
# included by its bare name, so each folder is on the include path.
SRC_DIRS = util lang diag frontend passes backends pipeline
CPPFLAGS += $(SRC_DIRS:%=-Isrc/%) -Isrc/payload -Isrc/driver -I$(B)
# the public headers (include/nvtxt/, installed) are included as
# "nvtxt/NAME.h", as an installed user includes them; no two headers share
# a name (tests/arrows.t), so the order of the folders decides nothing
CPPFLAGS += -Iinclude
FLEX ?= flex
BISON ?= bison
PROVE ?= prove

B = build
BIN = nvtxtc
SAN_FLAGS = -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all

LIB_SRCS = $(sort $(foreach d,$(SRC_DIRS),$(wildcard src/$(d)/*.c)))
DRIVER_SRCS = $(sort $(wildcard src/driver/*.c))
DRIVER_OBJS = $(DRIVER_SRCS:src/%.c=$(B)/%.o)
# lsp: the language server (src/lsp/, nvtxtc lsp) is part of the binary, not
# of the library; it uses jansson, as the JSON diagnostics do (LDLIBS below).
LSP_SRCS = $(sort $(wildcard src/lsp/*.c))
DRIVER_OBJS += $(LSP_SRCS:src/%.c=$(B)/%.o)
LSP_OBJS = $(LSP_SRCS:src/%.c=$(B)/%.o)
CPPFLAGS += -Isrc/lsp
UNIT_SRCS = $(filter-out tests/unit/payload.c,$(wildcard tests/unit/*.c))
# payload: begin
# The payload back end (nvtxt-payload(5)).  The NVTX v3 headers enable the
# compile-time checks of its constants and `nvtxtc replay`; ./configure may
# set NVTX_CPPFLAGS, otherwise the CUDA toolkit's include directory is tried.
NVTX_INC ?= /usr/local/cuda/include
NVTX_CPPFLAGS ?= $(if $(wildcard $(NVTX_INC)/nvtx3/nvToolsExtPayload.h),-I$(NVTX_INC) -DNVTXTC_HAVE_NVTX)
PAYLOAD_SRCS = $(filter-out src/payload/replay.c,$(wildcard src/payload/*.c)) \
	$(if $(NVTX_CPPFLAGS),src/payload/replay.c)
LIB_SRCS += $(PAYLOAD_SRCS)
CPPFLAGS += $(NVTX_CPPFLAGS)
LDLIBS += $(if $(NVTX_CPPFLAGS),-ldl) -pthread
# JSON and SARIF diagnostics (src/diag/diag_json.c, diag_sarif.c) and the tests' JSON
# parsing: Debian's libjansson-dev.  --emit=chrome writes its own bytes (src/backends/trace_writer.c).
# -lm: sqrtl, for the standard deviations of nvtxtc stats (src/backends/stats.c).
LDLIBS += -ljansson -lm
UNIT_SRCS += tests/unit/payload.c
RECORDER = $(B)/tests/inject/recorder.so
CHECK_DEPS = $(if $(NVTX_CPPFLAGS),$(RECORDER))
# payload: end
GEN_OBJS = $(B)/nvtxt.tab.o $(B)/nvtxt.lex.o
LIB_OBJS = $(LIB_SRCS:src/%.c=$(B)/%.o) $(GEN_OBJS)
UNIT_TESTS = $(patsubst tests/unit/%.c,$(B)/tests/unit/%.t,$(UNIT_SRCS))

all: $(BIN) libs

include mk/build.mk mk/tests.mk mk/fuzz.mk mk/demo.mk mk/install.mk mk/editors.mk mk/bench.mk

clean:
	rm -rf $(B) nvtxtc

.PHONY: all clean

-include $(wildcard $(B)/*.d $(B)/*/*.d)
