# roofline — build, run, test. `make help` lists the targets.
CC      ?= cc
CFLAGS  ?= -O2 -g
WARN     = -std=c11 -Wall -Wextra -Wpedantic -Wshadow -Werror
# The source in folders by phase, each using only those before it (src/README.md);
# a header is included by its name alone, from whichever folder holds it.
LAYERS   = base front cost report eval explore app
SRCDIRS  = $(addprefix src/,$(LAYERS))
CPPFLAGS = -D_XOPEN_SOURCE=700 $(addprefix -I,$(SRCDIRS)) -I$(B) -MMD -MP
B       ?= build
PREFIX  ?= /usr/local
FLEX    ?= flex
BISON   ?= bison

# Parallel by default, one job per core (a fresh clone's `make run` on two cores builds
# in half the time); a -j given on the command line (`make -j1`) wins.
ifeq ($(filter -j% j%,$(MAKEFLAGS)),)
MAKEFLAGS += -j$(shell nproc 2>/dev/null || echo 1)
endif

# Line editing with libedit when its header is there; plain line input otherwise.
HAVE_EDIT := $(shell printf '\#include <editline/readline.h>\n' | \
               $(CC) -E -x c - >/dev/null 2>&1 && echo yes)
ifeq ($(HAVE_EDIT),yes)
EDIT_CPPFLAGS = -DHAVE_LIBEDIT
EDIT_LIBS     = -ledit
endif
# linked in whole when its archives are there (Debian's libedit-dev): loading libedit
# and the three libraries it needs at every start took 0.43 M of the 1.04 M
# instructions of `roofline -e 1` (BENCHMARKS.md), though only the REPL uses it
EDIT_ARCHIVES := $(if $(HAVE_EDIT),$(shell for l in edit tinfo bsd md; do \
    [ -f "$$($(CC) -print-file-name=lib$$l.a)" ] || exit; done; echo yes))
ifeq ($(EDIT_ARCHIVES),yes)
EDIT_LIBS     = -Wl,-Bstatic -ledit -ltinfo -lbsd -lmd -Wl,-Bdynamic
endif

SRCS = $(filter-out src/app/main.c,$(wildcard $(SRCDIRS:%=%/*.c)))
OBJS = $(addprefix $(B)/,$(notdir $(SRCS:.c=.o))) $(B)/lexer.o $(B)/parser.o $(B)/stdlib.o \
       $(B)/stdlib_prebuilt.o
UNIT = $(patsubst tests/unit/%.c,$(B)/unit/%,$(wildcard tests/unit/*.c))

all: $(B)/roofline

# Linked at a fixed address (not PIE): a position-independent executable has 2,480
# relative relocations (the pointers in the chip, name and keyword tables), which the
# loader applies at every start, writing 8 pages of data that `roofline -e 1` never
# reads (6 of its ~100 page faults; BENCHMARKS.md). START_LDFLAGS= links it as PIE.
START_LDFLAGS ?= -no-pie

$(B)/roofline: $(B)/main.o $(OBJS)
	$(CC) $(CFLAGS) $(START_LDFLAGS) $(LDFLAGS) -o $@ $^ $(EDIT_LIBS) -lm

# Objects sit side by side in $(B), named as their sources (the names are unique).
define compile_layer
$(patsubst src/$(1)/%.c,$(B)/%.o,$(wildcard src/$(1)/*.c)): $(B)/%.o: src/$(1)/%.c $(B)/parser.h | $(B)
	$$(CC) $$(CPPFLAGS) $$(EDIT_CPPFLAGS) $$(WARN) $$(CFLAGS) -c -o $$@ $$<
endef
$(foreach d,$(LAYERS),$(eval $(call compile_layer,$(d))))

# A build from before a file moved (into the folders, or from one to another) has
# dependency files naming its old path: such an object is made again (the old path
# counts as changed) rather than stopping the build.
ALL_SRCS   = $(SRCS) src/app/main.c
MOVED_SRCS = $(addprefix src/,$(notdir $(ALL_SRCS))) $(filter-out $(ALL_SRCS), \
             $(foreach d,$(LAYERS),$(addprefix src/$(d)/,$(notdir $(ALL_SRCS)))))
$(MOVED_SRCS):

# flex and bison come from Debian: tools/deps.sh installs them when they are missing
# (or says what to run), so `make run` works on a fresh machine.
$(B)/parser.c $(B)/parser.h: grammar/parser.y | $(B)
	@command -v $(BISON) >/dev/null 2>&1 || sh tools/deps.sh
	$(BISON) -Wall -Wcounterexamples -Werror --header=$(B)/parser.h -o $(B)/parser.c $<

# (after bison's rule, so that `make -j` runs one deps.sh, not two racing for apt's lock)
$(B)/lexer.c $(B)/lexer.h: grammar/lexer.l | $(B) $(B)/parser.c
	@command -v $(FLEX) >/dev/null 2>&1 || sh tools/deps.sh
	$(FLEX) --header-file=$(B)/lexer.h -o $(B)/lexer.c $<

# Everything from Debian the build can use, libedit-dev (line editing) too;
# `make deps DRY=1` only says what it would install.
deps:
	@sh tools/deps.sh $(if $(DRY),--dry-run)

$(B)/parser.o: $(B)/parser.c $(B)/lexer.h
	$(CC) $(CPPFLAGS) $(WARN) $(CFLAGS) $(TABLE_CFLAGS) -c -o $@ $<

$(B)/lexer.o: $(B)/lexer.c $(B)/parser.h
	$(CC) $(CPPFLAGS) $(WARN) -Wno-unused-function $(CFLAGS) $(TABLE_CFLAGS) -c -o $@ $<

# The stdlib is compiled into the binary, so it works from any directory.
$(B)/stdlib.c: tools/embed.sh $(wildcard stdlib/*.roof) | $(B)
	sh tools/embed.sh stdlib/*.roof > $@

$(B)/stdlib.o: $(B)/stdlib.c
	$(CC) $(CPPFLAGS) $(WARN) $(CFLAGS) -c -o $@ $<

# The build's first stage (tools/prebuild.c): the interpreter without a prebuilt stdlib
# parses and checks the stdlib's files, so an error in them fails the build, and writes
# the names and chips a session starts from (src/app/prebuilt.h).
$(B)/prebuild: $(B)/tools/prebuild.o $(B)/tools/prebuilt_none.o \
               $(filter-out $(B)/stdlib_prebuilt.o,$(OBJS))
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(EDIT_LIBS) -lm

$(B)/tools/%.o: tools/%.c $(B)/parser.h
	@mkdir -p $(B)/tools
	$(CC) $(CPPFLAGS) $(WARN) $(CFLAGS) -c -o $@ $<

$(B)/stdlib_prebuilt.c: $(B)/prebuild
	$(B)/prebuild > $@.tmp && mv $@.tmp $@

$(B)/stdlib_prebuilt.o: $(B)/stdlib_prebuilt.c
	$(CC) $(CPPFLAGS) $(WARN) $(CFLAGS) -c -o $@ $<

$(B)/unit/%: tests/unit/%.c $(OBJS) | $(B)
	@mkdir -p $(B)/unit
	$(CC) $(CPPFLAGS) $(WARN) $(CFLAGS) -o $@ $< $(OBJS) $(EDIT_LIBS) -lm

$(B):
	@mkdir -p $(B)

run: $(B)/roofline
	$(B)/roofline examples/rooflines.roof

test: $(B)/roofline $(UNIT)
	@sh tests/run $(B)

# The checker of the --json and --csv output invariants (tests/output/output_check.h):
# standalone, for the tests only; the fuzz targets assert the same.
$(B)/check-output: tests/output/check_output.c tests/output/output_check.c | $(B)
	$(CC) $(CPPFLAGS) $(WARN) $(CFLAGS) $(LDFLAGS) -o $@ $^ -lm

test: $(B)/check-output

# Every program of the suite run in one process, its output checked as check-output
# checks a file (tests/output/check_programs.c: a process a program was most of the
# time of tests/output/json_lines.sh and csv_rows.sh).
$(B)/check-programs: tests/output/check_programs.c tests/output/output_check.c $(OBJS) | $(B)
	$(CC) $(CPPFLAGS) $(WARN) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(EDIT_LIBS) -lm

test: $(B)/check-programs

# The whole suite again under AddressSanitizer and UndefinedBehaviorSanitizer.
asan:
	$(MAKE) B=build/asan CFLAGS='-O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined,float-cast-overflow -fno-sanitize-recover=all' LDFLAGS='-fsanitize=address,undefined,float-cast-overflow' test

install: $(B)/roofline
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 $(B)/roofline $(DESTDIR)$(PREFIX)/bin/roofline
	install -m 644 roofline.1 $(DESTDIR)$(PREFIX)/share/man/man1/roofline.1

clean:
	rm -rf build

help:
	@echo 'targets: all run test (JOBS=N TIMES=N) asan valgrind faults fuzz (FUZZ_SECONDS=60) bench calib-loo screenshot install (PREFIX=$(PREFIX)) deps (DRY=1) clean'

.PHONY: all run test asan install clean help deps

-include $(wildcard $(B)/*.d $(B)/tools/*.d)

# ---- Hardening: fuzzing, valgrind, limits (tests/fuzz/README.md) ----------------------
# The fuzz targets and their objects live under $(B)/fuzz-obj. `make test` builds them
# with the normal compiler and a replaying main (tests/fuzz/replay.sh runs them on the
# corpus and every past crash); `make fuzz` builds them with libFuzzer under build/fuzz.
FUZZ_SECONDS ?= 60
FUZZ_SAN     = -fsanitize=address,undefined -fno-sanitize-recover=all
FUZZ_REPLAY  = $(patsubst %,$(B)/fuzz-replay-%,parse eval write gen complete)
FUZZ_INTERP  = $(B)/fuzz-obj/sandboxed.o $(B)/fuzz-obj/fuzz_run.o $(B)/fuzz-obj/output_check.o

$(B)/fuzz-obj/%.o: tests/fuzz/%.c $(B)/parser.h
	@mkdir -p $(B)/fuzz-obj
	$(CC) $(CPPFLAGS) $(WARN) $(CFLAGS) $(HARNESS_CFLAGS) -c -o $@ $<

$(B)/fuzz-obj/output_check.o: tests/output/output_check.c
	@mkdir -p $(B)/fuzz-obj
	$(CC) $(CPPFLAGS) $(WARN) $(CFLAGS) $(HARNESS_CFLAGS) -c -o $@ $<

# The interpreter with its fopen, rename and remove calls sent to sandbox.c (and
# libFuzzer's own not).
$(B)/fuzz-obj/sandboxed.o: $(B)/fuzz-obj/sandbox.o $(OBJS)
	$(LD) -r --wrap=fopen --wrap=rename --wrap=remove -o $@ $^

$(B)/fuzz-replay-%: $(B)/fuzz-obj/fuzz_%.o $(B)/fuzz-obj/replay.o $(FUZZ_INTERP)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(EDIT_LIBS) -lm

$(B)/fuzz_%: $(B)/fuzz-obj/fuzz_%.o $(FUZZ_INTERP)
	$(CC) $(CFLAGS) $(LDFLAGS) -fsanitize=fuzzer -o $@ $^ $(EDIT_LIBS) -lm

test: $(FUZZ_REPLAY)
.SECONDARY: $(patsubst tests/fuzz/%.c,$(B)/fuzz-obj/%.o,$(wildcard tests/fuzz/*.c))

# A bounded campaign (tests/fuzz/README.md): each target FUZZ_SECONDS, two at a time, on
# a fast build (coverage only, -O2), then every input it kept and every find run once
# through the checking build (ASan + UBSan); FUZZ_CHECKED=1 fuzzes the checking build
# itself, a sixth as fast. A find is copied to tests/fuzz/crashes/ and fails the target.
# Coverage is for the interpreter: the harness (the fuzz targets, the output check)
# has none, and flex's and bison's table walks no comparison tracing (their compares
# are of states, not of the input against constants, and were a third of the time).
FUZZ_TARGETS ?= parse eval write gen complete
FUZZ_COVERAGE  = -fsanitize=fuzzer-no-link
FUZZ_UNCOVERED = -fno-sanitize-coverage=inline-8bit-counters,indirect-calls,trace-cmp,pc-table
# fuzz_gen's bytes are choices, not text: no comparison in the interpreter is of an input
# byte, so its fast build (build/fuzz-gen) traces none (a quarter of its time otherwise).
FUZZ_FAST = $(if $(FUZZ_CHECKED),,$(filter-out gen,$(FUZZ_TARGETS)))
FUZZ_GEN  = $(if $(FUZZ_CHECKED),,$(filter gen,$(FUZZ_TARGETS)))
FUZZ_BUILD = $(MAKE) CC=clang HARNESS_CFLAGS='$(FUZZ_UNCOVERED)' \
    TABLE_CFLAGS='-fno-sanitize-coverage=trace-cmp'
fuzz:
	$(FUZZ_BUILD) B=build/fuzz LDFLAGS='$(FUZZ_SAN)' \
	    CFLAGS='-O1 -g -fno-omit-frame-pointer $(FUZZ_SAN) $(FUZZ_COVERAGE)' \
	    $(patsubst %,build/fuzz/fuzz_%,$(FUZZ_TARGETS))
	$(if $(FUZZ_FAST),$(FUZZ_BUILD) B=build/fuzz-fast LDFLAGS= \
	    CFLAGS='-O2 -g $(FUZZ_COVERAGE)' $(patsubst %,build/fuzz-fast/fuzz_%,$(FUZZ_FAST)))
	$(if $(FUZZ_GEN),$(FUZZ_BUILD) B=build/fuzz-gen LDFLAGS= \
	    CFLAGS='-O2 -g $(FUZZ_COVERAGE) -fno-sanitize-coverage=trace-cmp' build/fuzz-gen/fuzz_gen)
	$(if $(FUZZ_GEN),FUZZ_BIN_gen=build/fuzz-gen/fuzz_gen) sh tests/fuzz/campaign \
	    $(if $(FUZZ_CHECKED),build/fuzz,build/fuzz-fast) build/fuzz $(FUZZ_SECONDS) $(FUZZ_TARGETS)

# A few inputs under valgrind: uninitialised reads that ASan does not see, and leaks.
# Each runs with its usual exit status; valgrind's own is 99, which fails the target.
VALGRIND = valgrind -q --error-exitcode=99 --leak-check=full
VALGRIND_INPUTS = examples/*.roof tests/errors/bytes_nul.roof \
    tests/errors/syntax_several_errors.roof tests/errors/include_cycle.roof \
    tests/errors/overflow_dims_contract.roof tests/explore/sweep_too_many_points.roof

valgrind: $(B)/roofline
	@for f in $(VALGRIND_INPUTS); do \
	    for opt in '' --json; do \
	        $(VALGRIND) $(B)/roofline $$opt $$f >/dev/null 2>$(B)/valgrind.log; \
	        if [ $$? = 99 ]; then cat $(B)/valgrind.log; echo "valgrind: $$opt $$f"; exit 1; fi; \
	    done; \
	done; \
	$(VALGRIND) $(B)/roofline --ast examples/tour.roof >/dev/null 2>$(B)/valgrind.log || \
	    { cat $(B)/valgrind.log; exit 1; }; \
	echo 'let B = 8' | $(VALGRIND) $(B)/roofline - >/dev/null 2>$(B)/valgrind.log || \
	    { cat $(B)/valgrind.log; exit 1; }; \
	$(VALGRIND) $(B)/roofline --html $(B)/valgrind.html examples/model_llama3_70b.roof \
	    examples/explore.roof >/dev/null 2>$(B)/valgrind.log || { cat $(B)/valgrind.log; exit 1; }; \
	echo 'valgrind: clean'

# Fault injection (tests/faults/README.md): the interpreter relinked with its allocations
# and output operations sent to inject.c, which fails the Nth of them. `make test` runs a
# few runs of it; `make faults` every example at every allocation and output, under
# ASan + UBSan (LeakSanitizer finds what an early exit leaks).
FAULT_WRAPS = malloc calloc realloc strdup strndup fopen tmpfile rename write_history \
              source_read_file
FAULT_SAN   = -fsanitize=address,undefined -fno-sanitize-recover=all

$(B)/faults-obj/inject.o: tests/faults/inject.c | $(B)
	@mkdir -p $(B)/faults-obj
	$(CC) $(CPPFLAGS) $(EDIT_CPPFLAGS) $(WARN) $(CFLAGS) -c -o $@ $<

$(B)/faults-obj/injected.o: $(B)/faults-obj/inject.o $(B)/main.o $(OBJS)
	$(LD) -r $(FAULT_WRAPS:%=--wrap=%) -o $@ $^

# not position-independent, so a failed allocation's address names its line (addr2line)
$(B)/roofline-faults: $(B)/faults-obj/injected.o
	$(CC) $(CFLAGS) $(LDFLAGS) -no-pie -o $@ $^ $(EDIT_LIBS) -lm

test: $(B)/roofline-faults

faults:
	$(MAKE) B=build/faults CFLAGS='-O1 -g -fno-omit-frame-pointer $(FAULT_SAN) -DPOLY_SPARE_MAX=0' \
	    LDFLAGS='$(FAULT_SAN)' build/faults/roofline build/faults/roofline-faults
	sh tests/faults/run build/faults

.PHONY: faults

# Calibration, checked honestly (BENCHMARKS.md): each measured case predicted by a chip
# fitted without it. A few minutes (a calibration per case), so not part of `make test`,
# which checks the predictions in sample (tests/calib/).
calib-loo: $(B)/roofline
	sh tools/calib_check.sh $(B)/roofline H100 tests/data/measurements/h100-kernels-2026-11-27.jsonl loo; \
	sh tools/calib_check.sh $(B)/roofline H200 tests/data/measurements/h200-kernels-2026-11-27.jsonl loo; \
	sh tools/calib_check.sh $(B)/roofline H100 tests/data/measurements/h100-kernels-2026-11-27b.jsonl loo; \
	sh tools/calib_check.sh $(B)/roofline H200 tests/data/measurements/h200-kernels-2026-11-27b.jsonl loo; true

.PHONY: calib-loo

# Speed, measured (BENCHMARKS.md): medians of several runs; never part of `make test`.
bench: $(B)/roofline
	sh bench/run.sh $(B)/roofline

install: install-share

# The stdlib's sources too (share/roofline), so users can read the blocks they call.
install-share:
	install -d $(DESTDIR)$(PREFIX)/share/bash-completion/completions \
	    $(DESTDIR)$(PREFIX)/share/vim/vimfiles/syntax $(DESTDIR)$(PREFIX)/share/vim/vimfiles/ftdetect \
	    $(DESTDIR)$(PREFIX)/share/roofline
	install -m 644 stdlib/*.roof $(DESTDIR)$(PREFIX)/share/roofline/
	install -m 644 tools/completion.bash $(DESTDIR)$(PREFIX)/share/bash-completion/completions/roofline
	install -m 644 tools/roofline.vim $(DESTDIR)$(PREFIX)/share/vim/vimfiles/syntax/roofline.vim
	echo 'autocmd BufRead,BufNewFile *.roof setfiletype roofline' \
	    > $(DESTDIR)$(PREFIX)/share/vim/vimfiles/ftdetect/roofline.vim
	@# bash-completion looks in ~/.local/share and in $$XDG_DATA_DIRS (by default
	@# /usr/local/share:/usr/share): say what to do when PREFIX is neither
	@case ":$${XDG_DATA_DIRS:-/usr/local/share:/usr/share}:$$HOME/.local/share:" in \
	    *":$(PREFIX)/share:"*) ;; \
	    *) echo "bash completion: $(PREFIX)/share is not where bash-completion looks;" \
	           "add it to XDG_DATA_DIRS, e.g. export XDG_DATA_DIRS=$(PREFIX)/share:\$${XDG_DATA_DIRS:-/usr/local/share:/usr/share}" ;; \
	esac

.PHONY: fuzz valgrind bench install-share

-include $(wildcard $(B)/fuzz-obj/*.d)

# The README's picture of a page (docs/report.png): examples/model_llama3_70b.roof
# through --html, rendered by headless Chromium (`apt-get install chromium`).
CHROMIUM ?= chromium
screenshot: $(B)/roofline
	@mkdir -p docs
	$(B)/roofline --html $(B)/report.html examples/model_llama3_70b.roof
	$(CHROMIUM) --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run \
	    --window-size=1280,1800 --screenshot=$(CURDIR)/docs/report.png \
	    file://$(CURDIR)/$(B)/report.html 2>/dev/null

.PHONY: screenshot
