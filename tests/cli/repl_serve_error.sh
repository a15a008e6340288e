# In the REPL a serve that fails (nothing fits: LLaMA-3 70B's 141 GB of weights on one
# 16 GB v5e) loses no binding: B and S, which serve frees while it searches, keep their
# values, and the session goes on. Driven through a pseudo-terminal by script(1).
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
printf 'let B = 3, S = 4\nserve B, S: decode(B, S, 8192, 28672, 64, 8, 128, 80, 128256) on v5e with prompt = 8, output = 8\nB * S\nquit\n' |
    NO_COLOR=1 HOME=$home script -qec "$ROOFLINE" /dev/null | tr -d '\r' |
    grep -E '^(<repl>|B \* S =)'
