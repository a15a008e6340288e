"$ROOFLINE" -e ""
