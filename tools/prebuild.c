/* prebuild.c — the build's first stage: the interpreter without a prebuilt stdlib,
 * which parses and checks the stdlib's files and writes build/stdlib_prebuilt.c (prebuilt.h).
 * An error in the stdlib fails the build here. Usage: prebuild > prebuilt.c */
#include <stdio.h>

#include "session.h"

int main(void)
{
    return session_prebuild(stdout, stderr) ? 0 : 1;
}
