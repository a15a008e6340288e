# A misspelt option names the one it is closest to (within 2 edits), and runs nothing.
"$ROOFLINE" --jsn -e 1
