/* test_ast.c — the tree's constructors when out of memory left an item of a list null
 * (a failed ast_binding or ast_name_ref): the arrays they copy into hold a zeroed
 * element there, never a read through the null item (make faults found one in
 * ast_call). */
#include <string.h>

#include "ast.h"
#include "check.h"

static bool zeroed(const void *p, size_t size)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < size; i++)
        if (b[i])
            return false;
    return true;
}

int main(void)
{
    Arena a = {0};
    Span span = {0, 1};
    Node *one = ast_number(&a, span, 1);
    Binding *b = ast_binding(&a, ast_name_ref(&a, span, 7), one);
    AstList *args = ast_list_push(&a, NULL, b);
    args = ast_list_push(&a, args, NULL);

    Node *call = ast_call(&a, span, ast_name_ref(&a, span, 3), args);
    check(call && call->as.call.nargs == 2, __FILE__, __LINE__, "a call keeps both arguments' places");
    check(call && call->as.call.args[0].name.name == 7 && call->as.call.args[0].value == one,
          __FILE__, __LINE__, "the first argument is copied");
    check(call && zeroed(&call->as.call.args[1], sizeof(Binding)), __FILE__, __LINE__,
          "the null argument is a zeroed binding");

    Stmt *let = ast_let(&a, span, args);
    check(let && let->as.let.n == 2 && zeroed(&let->as.let.items[1], sizeof(Binding)),
          __FILE__, __LINE__, "a let's null binding is zeroed");

    AstList *names = ast_list_push(&a, NULL, NULL);
    Node *axes = ast_axes(&a, span, -1, names, NULL);
    check(axes && axes->as.axes.n == 1 && zeroed(&axes->as.axes.names[0], sizeof(NameRef)),
          __FILE__, __LINE__, "a null axis name is zeroed");

    Node *contract = ast_contract(&a, span, one, names, one);
    check(contract && contract->as.contract.ndims == 1 &&
              zeroed(&contract->as.contract.dims[0], sizeof(NameRef)),
          __FILE__, __LINE__, "a null contracted dim is zeroed");

    AstList *mesh_axes = ast_list_push(&a, NULL, NULL);
    check(ast_mesh(&a, span, mesh_axes) != NULL, __FILE__, __LINE__, "a mesh with a null axis is made");

    arena_free(&a);
    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
