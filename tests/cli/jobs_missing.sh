"$ROOFLINE" -e 1 --jobs
