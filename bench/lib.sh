# Helpers the bench scripts share (sourced, not run).

# median_of: the median of the numbers on standard input, one per line
# ("nan" when there are none).
median_of() {
  sort -g | awk '{ v[NR] = $1 } END {
    if (NR == 0) print "nan"; else if (NR % 2) print v[(NR + 1) / 2];
    else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# median_at FILE KEY: median of column 2 of the lines of FILE whose column 1 is KEY.
median_at() {
  awk -v k="$2" '$1 == k { print $2 }' "$1" | median_of
}

# median FILE COLUMN: the median of one column of FILE (fields split by spaces).
median() {
  cut -d' ' -f"$2" "$1" | median_of
}
