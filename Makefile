# roofline — build, run, test. `make help` lists the targets.
CC      ?= cc
CFLAGS  ?= -O2 -g
WARN     = -std=c11 -Wall -Wextra -Wpedantic -Wshadow -Werror
CPPFLAGS = -D_XOPEN_SOURCE=700 -Isrc -I$(B) -MMD -MP
B       ?= build
PREFIX  ?= /usr/local
FLEX    ?= flex
BISON   ?= bison

# Line editing with libedit when its header is there; plain line input otherwise.
HAVE_EDIT := $(shell printf '\#include <editline/readline.h>\n' | \
               $(CC) -E -x c - >/dev/null 2>&1 && echo yes)
ifeq ($(HAVE_EDIT),yes)
EDIT_CPPFLAGS = -DHAVE_LIBEDIT
EDIT_LIBS     = -ledit
endif

SRCS = $(filter-out src/main.c,$(wildcard src/*.c))
OBJS = $(SRCS:src/%.c=$(B)/%.o) $(B)/lexer.o $(B)/parser.o $(B)/stdlib.o
UNIT = $(patsubst tests/unit/%.c,$(B)/unit/%,$(wildcard tests/unit/*.c))

all: $(B)/roofline

$(B)/roofline: $(B)/main.o $(OBJS)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(EDIT_LIBS) -lm

$(B)/%.o: src/%.c $(B)/parser.h | $(B)
	$(CC) $(CPPFLAGS) $(EDIT_CPPFLAGS) $(WARN) $(CFLAGS) -c -o $@ $<

$(B)/parser.c $(B)/parser.h: grammar/parser.y | $(B)
	$(BISON) -Wall -Wcounterexamples -Werror --header=$(B)/parser.h -o $(B)/parser.c $<

$(B)/lexer.c $(B)/lexer.h: grammar/lexer.l | $(B)
	$(FLEX) --header-file=$(B)/lexer.h -o $(B)/lexer.c $<

$(B)/parser.o: $(B)/parser.c $(B)/lexer.h
	$(CC) $(CPPFLAGS) $(WARN) $(CFLAGS) -c -o $@ $<

$(B)/lexer.o: $(B)/lexer.c $(B)/parser.h
	$(CC) $(CPPFLAGS) $(WARN) -Wno-unused-function $(CFLAGS) -c -o $@ $<

# The stdlib is compiled into the binary, so it works from any directory.
$(B)/stdlib.c: tools/embed.sh $(wildcard stdlib/*.roof) | $(B)
	sh tools/embed.sh stdlib/*.roof > $@

$(B)/stdlib.o: $(B)/stdlib.c
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
	@echo 'targets: all run test asan install (PREFIX=$(PREFIX)) clean'

.PHONY: all run test asan install clean help

-include $(wildcard $(B)/*.d)
