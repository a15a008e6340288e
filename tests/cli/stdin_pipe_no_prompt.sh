# stdin not a terminal: the script is run, no banner and no prompts
printf 'let B = 2\nB * 3\n' | "$ROOFLINE"
