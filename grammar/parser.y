/* parser.y — the grammar; each action builds a node and nothing else.
 *
 * A program is statements separated by newlines or ';'. After a syntax error the
 * parser skips to the end of the statement and goes on, so every independent error
 * of a script is reported (up to the cap).
 */
%code requires {
#include "parse.h"
typedef void *yyscan_t;
#define YYLTYPE Span
#define YYLTYPE_IS_DECLARED 1
}

%code provides {
int yylex(YYSTYPE *yylval, YYLTYPE *yylloc, yyscan_t scanner);
}

%code {
#include <ctype.h>

#include "lexer.h"
#include "spell.h"

#define YYMAXDEPTH LIMIT_PARSE_DEPTH

#define ST (yyget_extra(scanner))
#define A (ST->arena)
#define YYLLOC_DEFAULT(Cur, Rhs, N)                                     \
    do {                                                                \
        if (N) {                                                        \
            (Cur).begin = YYRHSLOC(Rhs, 1).begin;                       \
            (Cur).end = YYRHSLOC(Rhs, N).end;                           \
        } else {                                                        \
            (Cur).begin = (Cur).end = YYRHSLOC(Rhs, 0).end;             \
        }                                                               \
    } while (0)

static void yyerror(const Span *loc, yyscan_t scanner, const char *msg);
static void twice(yyscan_t scanner, Span at, const char *clause);
static int dim_of(yyscan_t scanner, int name, Span at);
static int word_id(yyscan_t scanner, const char *word);
static Stmt *expr_or_command(yyscan_t scanner, Span at, Node *value, Clauses *clauses);
}

%define api.pure full
%define parse.error custom
%define parse.lac full
%locations
%param {yyscan_t scanner}
%expect 0

%union {
    double number;
    int id;
    int dtype;
    char *string;
    Node *node;
    Stmt *stmt;
    AstList *list;
    NameRef *ref;
    Binding *binding;
    Clauses *clauses;
    ChipRef *chip_ref;
    MeshAxisDef *mesh_axis;
    RangeSpec *range;
    SearchSize *search_size;
    SearchRange *search_range;
    SearchChoice *search_choice;
    struct Endpoint *endpoint;
    PlotOption *plot_option;
}

%token END 0 "end of input"
%token NEWLINE "newline"
%token <number> NUMBER "number"
%token <id> IDENT "name"
%token <dtype> DTYPE "dtype"
%token <string> STRING "string"
%token LET "let" USE "use" CHIP "chip" ARCH "arch" INCLUDE "include"
%token ON "on" SHARD "shard" OVER "over" COMPUTE "compute" MESH "mesh"
%token SOLVE "solve" SWEEP "sweep" IN "in" PLOT "plot" DOTDOT ".."
%token BLOCK "block" RETURN "return" REPEAT "repeat" EXPECT "expect" WITHIN "within"
%token MODE "mode" PARAM "param" CACHE "cache" FIT "fit" SEARCH "search" FUSED "fused"
%token REMAT "remat" OPTIMIZER "optimizer"
%token SERVE "serve" WITH "with" SEND "send" HELP "help"
%token <id> CMP "comparison"
%token <id> COLLECTIVE "collective"
%token <string> SHAPE "slice shape"
%token CONTRACT "*_" ARROW "->"

%type <node> expr tensor_type dim axis_set sharded_dim shape_dim
%type <stmt> stmt opt_stmt opt_plot plot
%type <range> range
%type <list> lines bindings mode_options fields arch_fields contracted names exprs mesh_axes body params param_list
%type <list> args arg_list dims opt_names without opt_shape shape search_sizes search_list serve_mixes
%type <list> paths path options plot_options
%type <search_size> search_size
%type <search_range> search_range
%type <search_choice> search_choice
%type <list> search_with search_ranges search_choices dotted_paths dotted_path
%type <ref> search_dim
%type <binding> param arg
%type <node> expect_value opt_within
%type <ref> name parent opt_name
%type <binding> binding
%type <clauses> clauses
%type <chip_ref> chip_ref
%type <endpoint> endpoint
%type <mesh_axis> mesh_axis
%type <plot_option> plot_option

%left '+' '-'
%left '*' '/' CONTRACT
%precedence NEGATE

%%

program
    : lines opt_stmt            { ST->stmts = $2 ? ast_list_push(A, $1, $2) : $1; }
    | lines error               { ST->stmts = $1; }
    ;

/* After an error the parser skips to the end of the statement; at a newline it is
 * ready to report the next error at once (yyerrok), at a ';' it waits, since the
 * error may have been a stray ';' inside brackets. */
lines
    : %empty                    { $$ = NULL; }
    | lines opt_stmt sep        { $$ = $2 ? ast_list_push(A, $1, $2) : $1; }
    | lines error NEWLINE       { $$ = $1; yyerrok; }
    | lines error ';'           { $$ = $1; }
    ;

sep : NEWLINE | ';' ;

opt_stmt
    : %empty                    { $$ = NULL; }
    | stmt
    ;

stmt
    : LET bindings              { $$ = ast_let(A, @$, $2); }
    | USE chip_ref              { $$ = ast_use(A, @$, $2); }
    | MESH mesh_axes            { $$ = ast_mesh(A, @$, $2); }
    | COLLECTIVE expr OVER name clauses
                                { $$ = ast_collective(A, @$, $1, $2, $4, $5); }
    | SOLVE expr clauses        { $$ = ast_solve(A, @$, NULL, $2, $3); }
    | SOLVE name ':' expr clauses
                                { $$ = ast_solve(A, @$, $2, $4, $5); }
    | SOLVE name ':' expr clauses CMP expr clauses
                                { $$ = ast_solve_equal(A, @$, $2, $4, $5, $6, $7, $8,
                                                       (Span){@7.begin, @8.end}, NULL); }
    | SOLVE name ':' expr clauses CMP expr clauses IN name
                                { $$ = ast_solve_equal(A, @$, $2, $4, $5, $6, $7, $8,
                                                       (Span){@7.begin, @8.end}, $10); }
    | FIT name ':' expr clauses { $$ = ast_fit(A, @$, $2, $4, $5); }
    | SERVE names ':' expr clauses serve_mixes
                                { $$ = ast_serve(A, @$, $2, @2, $4, $5, $6); }
    | SEARCH expr clauses OVER search_sizes search_with
                                { $$ = ast_search(A, @$, $2, $3, $5, $6); }
    | BLOCK name '(' params ')' body
                                { $$ = ast_block(A, @$, $2, $4, $6); }
    | RETURN expr               { $$ = ast_return(A, @$, $2); }
    | REPEAT expr body          { $$ = ast_repeat(A, @$, $2, NULL, $3); }
    | REPEAT expr OVER name body
                                { $$ = ast_repeat(A, @$, $2, $4, $5); }
    | FUSED body                { $$ = ast_fused(A, @$, $2); }
    | FUSED name                { $$ = ast_fused_switch(A, @$, $2); }
    | FUSED ON                  { $$ = ast_fused_switch(A, @$, NULL); }
    | REMAT name                { $$ = ast_remat(A, @$, $2, NULL); }
    | REMAT name paths          { $$ = ast_remat(A, @$, $2, $3); }
    | OPTIMIZER name options    { $$ = ast_optimizer(A, @$, $2, $3); }
    | EXPECT name CMP expect_value opt_name opt_within
                                { $$ = ast_expect(A, @$, $2, $3, $4, $5, $6); }
    | MODE name mode_options    { $$ = ast_mode(A, @$, $2, $3); }
    | plot
    | SWEEP name IN range opt_plot body
                                { $$ = ast_sweep(A, @$, $2, $4, $5, $6); }
    | CHIP name parent '{' fields '}'
                                { $$ = ast_chip(A, @$, $2, $3, $5); }
    | CHIP name                 { $$ = ast_chip_show(A, @$, $2); }
    | ARCH name parent '{' arch_fields '}'
                                { $$ = ast_arch(A, @$, $2, $3, $5, NULL, NULL, @$); }
    | ARCH name name STRING     { $$ = ast_arch(A, @$, $2, NULL, NULL, $3, $4, @4); }
    | INCLUDE STRING            { $$ = ast_include(A, @$, $2, @2); }
    | HELP help_topic           { $$ = ast_command(A, @$, COMMAND_HELP, @2); }
    | SEND expr name endpoint name endpoint clauses
                                { $$ = ast_send(A, @$, $2, $3, $4, $5, $6, $7); }
    | name '=' expr clauses     { $$ = ast_expr(A, @$, $1, $3, $4); }
    | expr clauses              { $$ = expr_or_command(scanner, @$, $1, $2); }
    ;

/* help, help sweep, help(attention), help(), ? sweep: any word, the statement words
 * too, since those are what a newcomer asks about. */
help_topic
    : %empty
    | help_word
    | '(' ')'
    | '(' help_word ')'
    ;

help_word
    : IDENT | DTYPE | COLLECTIVE | HELP | LET | USE | CHIP | ARCH | INCLUDE | ON | SHARD
    | OVER | COMPUTE | MESH | SOLVE | SWEEP | IN | PLOT | BLOCK | RETURN | REPEAT | EXPECT
    | WITHIN | MODE | PARAM | CACHE | FIT | SEARCH | FUSED | REMAT | OPTIMIZER | SERVE
    | WITH | SEND
    ;

name
    : IDENT                     { $$ = ast_name_ref(A, @1, $1); }
    ;

/* remat save layer.x, attention.o */
paths
    : path                      { $$ = ast_list_push(A, NULL, $1); }
    | paths ',' path            { $$ = ast_list_push(A, $1, $3); }
    ;

path
    : name                      { $$ = ast_list_push(A, NULL, $1); }
    | path '.' name             { $$ = ast_list_push(A, $1, $3); }
    ;

/* optimizer adam master fp32 zero 1: words, each a name, a dtype or a number */
options
    : %empty                    { $$ = NULL; }
    | options name              { $$ = ast_list_push(A, $1, ast_word(A, @2, $2->name, -1, 0)); }
    | options DTYPE             { $$ = ast_list_push(A, $1, ast_word(A, @2, -1, $2, 0)); }
    | options NUMBER            { $$ = ast_list_push(A, $1, ast_word(A, @2, -1, -1, $2)); }
    ;

bindings
    : binding                   { $$ = ast_list_push(A, NULL, $1); }
    | bindings ',' binding      { $$ = ast_list_push(A, $1, $3); }
    ;

binding
    : name '=' expr             { $$ = ast_binding(A, $1, $3); }
    ;

/* `mode training overlap step microbatches 8`: words, each with its value. */
mode_options
    : %empty                    { $$ = NULL; }
    | mode_options name expr    { $$ = ast_list_push(A, $1, ast_binding(A, $2, $3)); }
    ;

/* `(3, 3)`: chip coordinates; or a word: `all`, `host`. */
endpoint
    : '(' exprs ')'             { $$ = ast_endpoint(A, @$, NULL, $2); }
    | name                      { $$ = ast_endpoint(A, @$, $1, NULL); }
    ;

parent
    : %empty                    { $$ = NULL; }
    | ':' name                  { $$ = $2; }
    ;

body
    : '{' lines opt_stmt '}'    { $$ = $3 ? ast_list_push(A, $2, $3) : $2; }
    ;

params
    : %empty                    { $$ = NULL; }
    | param_list
    ;

param_list
    : param                     { $$ = ast_list_push(A, NULL, $1); }
    | param_list ',' param      { $$ = ast_list_push(A, $1, $3); }
    ;

param
    : name                      { $$ = ast_binding(A, $1, NULL); }
    | name '=' expr             { $$ = ast_binding(A, $1, $3); }
    | name '=' axis_set         { $$ = ast_binding(A, $1, $3); }
    | name ':' '[' opt_shape ']'
                                { $$ = ast_shaped_param(A, $1, $4); }
    ;

args
    : %empty                    { $$ = NULL; }
    | arg_list
    ;

arg_list
    : arg                       { $$ = ast_list_push(A, NULL, $1); }
    | arg_list ',' arg          { $$ = ast_list_push(A, $1, $3); }
    ;

arg
    : expr                      { $$ = ast_binding(A, ast_name_ref(A, @1, -1), $1); }
    | IDENT '=' expr            { $$ = ast_binding(A, ast_name_ref(A, @1, $1), $3); }
    | axis_set                  { $$ = ast_binding(A, ast_name_ref(A, @1, -1), $1); }
    | IDENT '=' axis_set        { $$ = ast_binding(A, ast_name_ref(A, @1, $1), $3); }
    ;

expect_value
    : expr
    | COMPUTE                   { $$ = ast_name(A, @1, word_id(scanner, "compute")); }
    ;

opt_within
    : %empty                    { $$ = NULL; }
    | WITHIN expr '%'           { $$ = $2; }
    ;

range
    : expr DOTDOT expr          { $$ = ast_range(A, @$, $1, $3, NULL, NULL, NULL); }
    | expr DOTDOT expr name expr
                                { $$ = ast_range(A, @$, $1, $3, $4, $5, NULL); }
    | '[' exprs ']'             { $$ = ast_range(A, @$, NULL, NULL, NULL, NULL, $2); }
    ;

/* serve's request mixes: `with prompt = 2048, output = 512`, one `with` a mix. */
serve_mixes
    : WITH bindings             { $$ = ast_list_push(A, NULL, $2); }
    | serve_mixes WITH bindings { $$ = ast_list_push(A, $1, $3); }
    ;

/* What a search ranges over: chips (256), slices (16x16), or a list of them. */
search_sizes
    : search_size               { $$ = ast_list_push(A, NULL, $1); }
    | '[' search_list ']'       { $$ = $2; }
    ;

search_list
    : search_size               { $$ = ast_list_push(A, NULL, $1); }
    | search_list ',' search_size
                                { $$ = ast_list_push(A, $1, $3); }
    ;

search_size
    : expr                      { $$ = ast_search_size(A, @1, $1, NULL); }
    | SHAPE                     { $$ = ast_search_size(A, @1, NULL, $1); }
    ;

/* `with microbatches in [1, 2, 4], remat in [none, full, save(layer.x, layer.y)]`:
 * the plan dimensions a search ranges over, each restricted to the choices listed. */
search_with
    : %empty                    { $$ = NULL; }
    | WITH search_ranges        { $$ = $2; }
    ;

search_ranges
    : search_range              { $$ = ast_list_push(A, NULL, $1); }
    | search_ranges ',' search_range
                                { $$ = ast_list_push(A, $1, $3); }
    ;

search_range
    : search_dim IN '[' search_choices ']'
                                { $$ = ast_search_range(A, @$, $1, $4); }
    ;

/* remat is a statement word; here it names the dimension. */
search_dim
    : name
    | REMAT                     { $$ = ast_name_ref(A, @1, word_id(scanner, "remat")); }
    ;

search_choices
    : search_choice             { $$ = ast_list_push(A, NULL, $1); }
    | search_choices ',' search_choice
                                { $$ = ast_list_push(A, $1, $3); }
    ;

/* A path has a dot (`layer.x`), so `save(layer.x)` is told from a call after the name. */
search_choice
    : expr                      { $$ = ast_search_choice(A, @$, $1, NULL); }
    | IDENT '(' dotted_paths ')'
                                { $$ = ast_search_choice(A, @$, NULL,
                                      ast_remat(A, @$, ast_name_ref(A, @1, $1), $3)); }
    ;

dotted_paths
    : dotted_path               { $$ = ast_list_push(A, NULL, $1); }
    | dotted_paths ',' dotted_path
                                { $$ = ast_list_push(A, $1, $3); }
    ;

dotted_path
    : IDENT '.' IDENT           { $$ = ast_list_push(A, ast_list_push(A, NULL,
                                      ast_name_ref(A, @1, $1)), ast_name_ref(A, @3, $3)); }
    | dotted_path '.' IDENT     { $$ = ast_list_push(A, $1, ast_name_ref(A, @3, $3)); }
    ;

opt_plot
    : %empty                    { $$ = NULL; }
    | plot
    ;

plot
    : PLOT plot_options         { $$ = ast_plot(A, @$, NULL, $2); }
    | PLOT STRING plot_options  { $$ = ast_plot(A, @$, $2, $3); }
    ;

/* `title "Q3"`, `x log`, `y linear`, `x 1 .. 1024`: checked when it runs. A scale is
 * an expr (a name) rather than a name, so that no state must choose between the two
 * before it sees whether `..` follows. */
plot_options
    : %empty                    { $$ = NULL; }
    | plot_options plot_option  { $$ = ast_list_push(A, $1, $2); }
    ;

plot_option
    : name STRING               { $$ = ast_plot_option(A, @$, $1, $2, NULL, NULL, NULL); }
    | name expr                 { $$ = ast_plot_option(A, @$, $1, NULL, $2, NULL, NULL); }
    | name expr DOTDOT expr     { $$ = ast_plot_option(A, @$, $1, NULL, NULL, $2, $4); }
    ;

 /* A model's fields: numbers, the blocks that cost it (names), its dtype. */
arch_fields
    : %empty                    { $$ = NULL; }
    | arch_fields sep           { $$ = $1; }
    | arch_fields ','           { $$ = $1; }
    | arch_fields binding       { $$ = ast_list_push(A, $1, $2); }
    ;

chip_ref
    : name                      { $$ = ast_chip_ref(A, $1, NULL, @1); }
    | name SHAPE                { $$ = ast_chip_ref(A, $1, $2, @2); }
    ;

mesh_axes
    : mesh_axis                 { $$ = ast_list_push(A, NULL, $1); }
    | mesh_axes ',' mesh_axis   { $$ = ast_list_push(A, $1, $3); }
    ;

mesh_axis
    : name '=' expr opt_name    { $$ = ast_mesh_axis(A, $1, $3, $4); }
    ;

opt_name
    : %empty                    { $$ = NULL; }
    | name
    ;

fields
    : %empty                    { $$ = NULL; }
    | fields sep                { $$ = $1; }
    | fields ','                { $$ = $1; }
    | fields binding            { $$ = ast_list_push(A, $1, $2); }
    ;

clauses
    : %empty                    { $$ = ast_clauses(A); }
    | clauses ARROW tensor_type { $$ = $1; if ($$ && $$->out_type) twice(scanner, @2, "->");
                                  if ($$) $$->out_type = $3; }
    | clauses ON chip_ref       { $$ = $1; if ($$ && $$->chip.name.name >= 0)
                                      twice(scanner, @2, "on");
                                  if ($$ && $3) $$->chip = *$3; }
    | clauses SHARD name OVER expr
                                { $$ = $1; if ($$) $$->shards = ast_list_push(A, $$->shards,
                                      ast_shard(A, (Span){@2.begin, @5.end}, $3, $5)); }
    | clauses MESH mesh_axes    { $$ = $1; if ($$ && $$->mesh) twice(scanner, @2, "mesh");
                                  ast_clauses_mesh(A, $$, $3, (Span){@2.begin, @3.end}); }
    | clauses COMPUTE DTYPE     { $$ = $1; if ($$ && $$->compute >= 0)
                                      twice(scanner, @2, "compute");
                                  if ($$) { $$->compute = $3;
                                  $$->compute_span = @3; } }
    ;

expr
    : expr '+' expr             { $$ = ast_binary(A, @$, '+', $1, $3); }
    | expr '-' expr             { $$ = ast_binary(A, @$, '-', $1, $3); }
    | expr '*' expr             { $$ = ast_binary(A, @$, '*', $1, $3); }
    | expr '/' expr             { $$ = ast_binary(A, @$, '/', $1, $3); }
    | expr CONTRACT contracted expr
                                { $$ = ast_contract(A, @$, $1, $3, $4); }
    | '-' expr %prec NEGATE     { $$ = ast_negate(A, @$, $2); }
    | '(' expr ')'              { $$ = $2; }
    | NUMBER                    { $$ = ast_number(A, @$, $1); }
    | IDENT                     { $$ = ast_name(A, @$, $1); }
    | IDENT '(' args ')'        { $$ = ast_call(A, @$, ast_name_ref(A, @1, $1), $3); }
    | PARAM tensor_type         { $$ = ast_marked(A, @$, NODE_PARAM, $2); }
    | CACHE tensor_type         { $$ = ast_marked(A, @$, NODE_CACHE, $2); }
    | tensor_type
    | DTYPE                     { $$ = ast_dtype(A, @$, $1); }
    ;

/* {X, Y} or {}: mesh axes, for a block's axis parameter. */
axis_set
    : '{' opt_names '}'         { $$ = ast_axes(A, @$, -1, $2, NULL); }
    ;

contracted
    : name                      { $$ = ast_list_push(A, NULL, $1); }
    | '{' names '}'             { $$ = $2; }
    ;

names
    : name                      { $$ = ast_list_push(A, NULL, $1); }
    | names ',' name            { $$ = ast_list_push(A, $1, $3); }
    ;

opt_names
    : %empty                    { $$ = NULL; }
    | names
    ;

/* wdtype[D, F]: a name bound to a dtype (a block's parameter, a let) in its place. */
tensor_type
    : DTYPE '[' ']'             { $$ = ast_tensor(A, @$, $1, NULL); }
    | DTYPE '[' dims ']'        { $$ = ast_tensor(A, @$, $1, $3); }
    | IDENT '[' ']'             { $$ = ast_tensor_named(A, @$, ast_name_ref(A, @1, $1), NULL); }
    | IDENT '[' dims ']'        { $$ = ast_tensor_named(A, @$, ast_name_ref(A, @1, $1), $3); }
    ;

dims
    : dim                       { $$ = ast_list_push(A, NULL, $1); }
    | dims ',' dim              { $$ = ast_list_push(A, $1, $3); }
    ;

/* F_{tp}: the dim F sharded over the axes in braces (named, or bound to axes);
 * C_{dp, fsdp, -ep}: over those of dp and fsdp that ep does not name. */
dim
    : expr
    | sharded_dim
    ;

sharded_dim
    : IDENT '{' opt_names '}'   { $$ = ast_axes(A, @$, dim_of(scanner, $1, @1), $3, NULL); }
    | IDENT '{' names ',' without '}'
                                { $$ = ast_axes(A, @$, dim_of(scanner, $1, @1), $3, $5); }
    ;

without
    : '-' name                  { $$ = ast_list_push(A, NULL, $2); }
    | without ',' '-' name      { $$ = ast_list_push(A, $1, $4); }
    ;

/* A shaped parameter's dims: names, each with the axes the block wants it over. */
opt_shape
    : %empty                    { $$ = NULL; }
    | shape
    ;

shape
    : shape_dim                 { $$ = ast_list_push(A, NULL, $1); }
    | shape ',' shape_dim       { $$ = ast_list_push(A, $1, $3); }
    ;

shape_dim
    : IDENT                     { $$ = ast_name(A, @1, $1); }
    | sharded_dim
    ;

exprs
    : expr                      { $$ = ast_list_push(A, NULL, $1); }
    | exprs ',' expr            { $$ = ast_list_push(A, $1, $3); }
    ;

%%

/* Bison calls this only when its stack is full: brackets nested about YYMAXDEPTH deep. */
static void yyerror(const Span *loc, yyscan_t scanner, const char *msg)
{
    ParseState *st = yyget_extra(scanner);
    diag_error(st->diag, st->src, *loc, "nested too deeply for the parser (%s after %d "
               "levels)", msg, YYMAXDEPTH);
}

/* A clause that a statement may have once, written again: an error, not the last one
 * silently winning. */
static void twice(yyscan_t scanner, Span at, const char *clause)
{
    ParseState *st = yyget_extra(scanner);
    diag_error(st->diag, st->src, at, "`%s` given twice in one statement; keep one", clause);
}

/* The dim of `F_{tp}`: the name before the brace without its `_`. */
static int dim_of(yyscan_t scanner, int name, Span at)
{
    ParseState *st = yyget_extra(scanner);
    const char *text = intern_name(st->names, name);
    size_t len = strlen(text);
    if (len < 2 || text[len - 1] != '_') {
        diag_error(st->diag, st->src, at, "a dim's axes follow an underscore: %s_{...}", text);
        return name;
    }
    int dim = intern_id(st->names, text, len - 1);
    if (dim < 0)
        st->arena->oom = 1;
    return dim;
}

/* The id of a word the grammar names itself, as a name; out of memory discards the
 * parse, as in dim_of. */
static int word_id(yyscan_t scanner, const char *word)
{
    ParseState *st = yyget_extra(scanner);
    int id = intern_id(st->names, word, strlen(word));
    if (id < 0)
        st->arena->oom = 1;
    return id;
}

/* The REPL's words as a statement of their own: `names`, `chips`, `names()`; `quit`
 * and `exit` are the REPL's alone (it leaves on them before they get here), so
 * elsewhere they are an error that says so. Any other expression is reported. */
static Stmt *expr_or_command(yyscan_t scanner, Span at, Node *value, Clauses *clauses)
{
    ParseState *st = yyget_extra(scanner);
    bool bare = value && clauses && !clauses->out_type && clauses->chip.name.name < 0 &&
                !clauses->shards && !clauses->mesh && clauses->compute < 0;
    int name = !bare ? -1 : value->kind == NODE_NAME ? value->as.name
             : value->kind == NODE_CALL && value->as.call.nargs == 0 ? value->as.call.callee.name
                                                                     : -1;
    const char *word = name >= 0 ? intern_name(st->names, name) : "";
    if (strcmp(word, "names") == 0 || strcmp(word, "chips") == 0)
        return ast_command(A, at, word[0] == 'n' ? COMMAND_NAMES : COMMAND_CHIPS,
                           (Span){at.end, at.end});
    if (strcmp(word, "quit") == 0 || strcmp(word, "exit") == 0)
        diag_error(st->diag, st->src, at, "`%s` leaves the REPL, typed alone on its line; "
                   "a script, -e or piped input ends where its text ends: remove it", word);
    return ast_expr(A, at, NULL, value, clauses);
}

/* Where to point at the end of input: just after the last thing written. */
static Span end_of_text(const Source *src)
{
    int end = (int)src->len;
    while (end > 0 && strchr(" \t\r\n", src->text[end - 1]))
        end--;
    return (Span){end, end};
}

/* "unexpected X": the token as the user wrote it, or its name. */
static void describe_token(const ParseState *st, yysymbol_kind_t tok, Span span, char *buf,
                           size_t size)
{
    int len = span.end - span.begin;
    if (tok == YYSYMBOL_NEWLINE || tok == YYSYMBOL_YYEOF || len <= 0)
        snprintf(buf, size, "%s", yysymbol_name(tok));
    else if (len > 40)
        snprintf(buf, size, "'%.37s...'", st->src->text + span.begin);
    else
        snprintf(buf, size, "'%.*s'", len, st->src->text + span.begin);
}

/* A token's name for a message: keywords and operators quoted as written ('let',
 * '*_'), kinds of token plain (name, number, newline). */
static const char *token_name(yysymbol_kind_t tok, char *buf, size_t size)
{
    const char *name = yysymbol_name(tok);
    switch (tok) {
    case YYSYMBOL_YYEOF: case YYSYMBOL_NEWLINE: case YYSYMBOL_NUMBER: case YYSYMBOL_IDENT:
    case YYSYMBOL_DTYPE: case YYSYMBOL_STRING: case YYSYMBOL_SHAPE: case YYSYMBOL_COLLECTIVE:
    case YYSYMBOL_CMP:
        return name;
    default:
        if (name[0] == '\'')
            return name;
        snprintf(buf, size, "'%s'", name);
        return buf;
    }
}

static void list_expected(const yypcontext_t *ctx, char *buf, size_t size)
{
    /* Bison lists nothing when more tokens would fit than there is room for. */
    enum { MAX_LISTED = 14 };
    yysymbol_kind_t expected[MAX_LISTED];
    int n = yypcontext_expected_tokens(ctx, expected, MAX_LISTED);
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < n && used < size; i++) {
        char quoted[32];
        used += (size_t)snprintf(buf + used, size - used, "%s%s",
                                 i == 0 ? ", expected " : i == n - 1 ? " or " : ", ",
                                 token_name(expected[i], quoted, sizeof quoted));
    }
}

/* `int32[B, D]`: a name where a tensor type's dtype goes. */
static int unknown_dtype(ParseState *st)
{
    int len = st->last_name.end - st->last_name.begin;
    char word[64];
    snprintf(word, sizeof word, "%.*s", len, st->src->text + st->last_name.begin);
    diag_error(st->diag, st->src, st->last_name, "unknown dtype %s: a tensor type is a dtype "
               "and its dims, as bf16[B, D]", word);
    SpellNear near = spell_begin(word);
    for (int i = 0; dtype_spellings[i]; i++)
        spell_offer(&near, dtype_spellings[i]);
    if (near.best)
        diag_note(st->diag, "did you mean %s?", near.best);
    diag_note(st->diag, "the dtypes: f64 f32 bf16 f16 fp8 (e4m3) fp8_e5m2 int8 int4 fp4 "
              "int32");
    return 0;
}

/* The words the language keeps for its statements and clauses. */
static bool statement_word(int token)
{
    switch (token) {
    case LET: case USE: case CHIP: case INCLUDE: case ON: case SHARD: case OVER:
    case COMPUTE: case MESH: case SOLVE: case SWEEP: case IN: case PLOT: case BLOCK:
    case RETURN: case REPEAT: case EXPECT: case WITHIN: case MODE: case PARAM: case CACHE:
    case FIT: case SEARCH: case FUSED: case REMAT: case OPTIMIZER: case SERVE: case WITH:
    case SEND: case HELP:
        return true;
    default:
        return false;
    }
}

/* `fit = ...`, `let search = 2`: a statement word where a name goes. The word ends at
 * `end`, and *span becomes its span; false when the slip is not that. */
static bool word_as_name(const ParseState *st, int end, Span *span, char *buf, size_t size)
{
    int begin = end;
    while (begin > 0 && isalpha((unsigned char)st->src->text[begin - 1]))
        begin--;
    if (begin == end)
        return false;
    *span = (Span){begin, end};
    snprintf(buf, size, "`%.*s` is a statement word, not a name: pick another name for the "
             "value", end - begin, st->src->text + begin);
    return true;
}

/* The slips people make most, `x *D y` for `x *_D y`, a chip without `on`, a statement
 * word as a name: one targeted message into buf instead of bison's list of expected
 * tokens. */
static bool common_slip(const yypcontext_t *ctx, const ParseState *st, yysymbol_kind_t tok,
                        Span *at, char *buf, size_t size)
{
    int len = st->last_name.end - st->last_name.begin;
    const char *name = st->src->text + st->last_name.begin;
    Span span = *at;
    int before = span.begin; /* the end of the token before the unexpected one */
    while (before > 0 && isspace((unsigned char)st->src->text[before - 1]))
        before--;
    bool leads = st->older_token == 0 || st->older_token == NEWLINE || st->older_token == ';' ||
                 st->older_token == '{'; /* `fit = ...` as a statement of its own */
    if (tok != YYSYMBOL_YYEOF && st->last_token == '=' && leads && st->prev_token != LET &&
        statement_word(st->prev_token) && word_as_name(st, before, at, buf, size))
        return true;
    if (st->older_token == '*' && st->prev_token == IDENT && tok != YYSYMBOL_YYEOF &&
        st->src->text[st->last_name.begin - 1] == '*') {
        snprintf(buf, size, "`*%.*s` is not an operator: to contract over %.*s, write *_%.*s "
                 "(no space)", len, name, len, name, len, name);
        return true;
    }
    if (tok != YYSYMBOL_YYEOF && (st->prev_token == HELP || st->older_token == HELP)) {
        snprintf(buf, size, "help takes one word, as written: help sweep, help attention, "
                 "help llama3_8b, help contract for *_ (`help` alone lists the topics)");
        return true;
    }
    yysymbol_kind_t expected[YYNTOKENS];
    int n = yypcontext_expected_tokens(ctx, expected, YYNTOKENS);
    /* `let fit = 3`, the word on the line of the `let` (on the next, it starts a
     * statement of its own) */
    bool binding = (st->prev_token == LET || st->prev_token == ',') && st->last_token != LET &&
                   !memchr(st->src->text + before, '\n', (size_t)(span.begin - before));
    for (int i = 0; tok != YYSYMBOL_YYEOF && binding && statement_word(st->last_token) && i < n;
         i++)
        if (expected[i] == YYSYMBOL_IDENT)
            return word_as_name(st, span.end, at, buf, size);
    for (int i = 0; tok == YYSYMBOL_IDENT && i < n; i++)
        if (expected[i] == YYSYMBOL_ON) {
            int word = span.end - span.begin;
            snprintf(buf, size, "a name after the statement: `on` goes before a chip, as "
                     "... on %.*s", word, st->src->text + span.begin);
            return true;
        }
    return false;
}

static int yyreport_syntax_error(const yypcontext_t *ctx, yyscan_t scanner)
{
    ParseState *st = yyget_extra(scanner);
    yysymbol_kind_t tok = yypcontext_token(ctx);
    if (st->diag->capped) /* past LIMIT_ERRORS: nothing more is said */
        return 0;
    if (st->bad_char_end > st->stmt_begin) /* the bad character said it */
        return 0;
    if (tok == YYSYMBOL_YYEOF && st->interactive && st->diag->errors == 0) {
        st->incomplete = true;
        return 0;
    }
    Span span = tok == YYSYMBOL_YYEOF ? end_of_text(st->src) : *yypcontext_location(ctx);
    if (tok != YYSYMBOL_YYEOF && st->src->text[span.begin] == '[' && st->prev_token == IDENT &&
        st->last_name.end == span.begin)
        return unknown_dtype(st);
    char what[64], expected[256], slip[256];
    describe_token(st, tok, span, what, sizeof what);
    list_expected(ctx, expected, sizeof expected);
    if (common_slip(ctx, st, tok, &span, slip, sizeof slip))
        diag_error(st->diag, st->src, span, "syntax error: %s", slip);
    else
        diag_error(st->diag, st->src, span, "syntax error: unexpected %s%s", what, expected);
    int line, col, start_line;
    source_position(st->src, span.begin, &line, &col);
    source_position(st->src, st->stmt_begin, &start_line, &col);
    if (start_line < line)
        diag_note(st->diag, "the statement that starts on line %d is not finished (a "
                  "statement goes on after an operator or a comma, and inside brackets or "
                  "braces)", start_line);
    return 0;
}

ParseResult parse_source(ParseState *st)
{
    yyscan_t scanner;
    if (yylex_init_extra(st, &scanner) != 0) {
        st->arena->oom = 1;
        return PARSE_ERROR;
    }
    YY_BUFFER_STATE buf = yy_scan_bytes(st->src->text, (int)st->src->len, scanner);
    yyset_lineno(1, scanner);
    int errors_before = st->diag->errors;
    int rc = yyparse(scanner);
    yy_delete_buffer(buf, scanner);
    yylex_destroy(scanner);
    if (st->incomplete)
        return PARSE_INCOMPLETE;
    if (rc != 0 || st->diag->errors > errors_before || st->arena->oom)
        return PARSE_ERROR;
    return PARSE_OK;
}
