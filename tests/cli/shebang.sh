# a script starting with #!/usr/bin/env roofline runs as a program
d=$(mktemp -d) || exit 99
ln -s "$ROOFLINE" "$d/roofline"
printf '#!/usr/bin/env roofline\nlet B = 2\nB * 3\n' > "$d/script.roof"
chmod +x "$d/script.roof"
cd "$d" && PATH="$d:$PATH" ./script.roof
rc=$?
rm -rf "$d"
exit $rc
