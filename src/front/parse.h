/* parse.h — text to tree: the state the flex scanner and the bison parser share.
 *
 * Ownership: the tree and its strings live in `arena`; names go to `names`.
 */
#ifndef ROOFLINE_PARSE_H
#define ROOFLINE_PARSE_H

#include <stdbool.h>

#include "arena.h"
#include "ast.h"
#include "diag.h"
#include "intern.h"
#include "source.h"

typedef struct {
    const Source *src;
    Arena *arena;
    Intern *names;
    Diag *diag;
    int offset;      /* bytes scanned so far: the next token's start */
    int depth;       /* open ( and [: newlines inside them do not end a statement */
    int last_token;  /* a statement cannot end after an operator */
    int prev_token;  /* the one before it */
    int older_token; /* and the one before that, for "write *_D" */
    int contract;    /* ... nor inside `*_D` before its right operand (lexer.l) */
    int stmt_begin;  /* where the statement being read began, for messages */
    int braces;      /* open { }: a chip body's lines are one statement */
    Span last_name;  /* the last name scanned, for "unknown dtype" */
    int bad_char_end; /* just after the last bad character: what follows in its
                         statement is a cascade, not another error */
    bool interactive;
    bool incomplete; /* the text stopped in the middle of a statement */
    AstList *stmts;
} ParseState;

typedef enum { PARSE_OK, PARSE_ERROR, PARSE_INCOMPLETE } ParseResult;

/* Parse a whole source into st->stmts. Syntax errors are reported through st->diag
 * (every independent one, up to the cap). In interactive mode, text that ends
 * mid-statement with no other error gives PARSE_INCOMPLETE and prints nothing. */
ParseResult parse_source(ParseState *st);

#endif
