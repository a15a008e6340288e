# Options may come after the inputs: --json applies to every input.
"$ROOFLINE" -e "bf16[2,3] *_D bf16[3,4] on v5e" --json | cut -c1-60
