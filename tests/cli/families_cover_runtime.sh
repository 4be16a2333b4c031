# Every family the runtime writes into telemetry (runtime/record.c, gmemrt_family_names) is a
# family of gmemlint's built-in table, and every API it names as a site's or a free's call has a
# row there: the join looks both up (gm_site_family, the free's family), and a name missing from
# the table would leave a site with no family, so no GM110/GM120/GM130 for it.
source "$(dirname "$0")/testlib.bash"
cd "$WORK"
record="$ROOT/runtime/record.c"
table="$ROOT/rules/families.ini"

# the quoted names of one of record.c's name arrays: `const char *const NAME[...] = { ... };`
names_of() {
  sed -n "/$1\[[A-Z_]*\] = {/,/};/p" "$record" | grep -oE '"[^"]+"' | tr -d '"' | sort -u
}
mapfile -t families < <(names_of gmemrt_family_names)
mapfile -t frees < <(names_of gmemrt_free_names)
mapfile -t apis < <(grep -ohE '\.api = "[A-Za-z0-9_]+"' "$ROOT"/runtime/*.[ch] | grep -oE '"[^"]+"' |
  tr -d '"' | sort -u)
# the lists are read from the sources: an empty or short one means the extraction broke
[ ${#families[@]} -ge 10 ] || fail "found ${#families[@]} runtime families in $record: ${families[*]}"
[ ${#frees[@]} -ge 9 ] || fail "found ${#frees[@]} runtime free names in $record: ${frees[*]}"
[ ${#apis[@]} -ge 20 ] || fail "found ${#apis[@]} runtime API names in runtime/: ${apis[*]}"

# The families, asked of gmemlint itself: a .gmemlint row may name any family of the built-in
# table, and naming one it lacks is an error ("names unknown family").
mkdir proj
write_clean proj/ok.cu
for i in "${!families[@]}"; do
  printf '[alloc probe_%d]\nfamily = %s\npointer = 0\nsize = 1\n\n' "$i" "${families[$i]}"
done >proj/.gmemlint
run --no-cache proj/ok.cu
expect_rc 0 "every runtime family is in the built-in table (${families[*]})"
[ ! -s "$WORK/err" ] || fail "runtime families: $(cat "$WORK/err")"
# the probe itself fails on a family the table lacks
printf '[alloc probe]\nfamily = cuda-nonexistent\npointer = 0\n' >proj/.gmemlint
run --no-cache proj/ok.cu
expect_rc 2 "a family the table lacks"
expect_err "function 'probe' names unknown family 'cuda-nonexistent'" "unknown family message"

# The API names: each has an [alloc], [free] or [copy] row of the table.
for api in $(printf '%s\n' "${frees[@]}" "${apis[@]}" | sort -u); do
  grep -qE "^\[(alloc|free|copy) $api\]" "$table" || fail "the runtime records '$api', which has no [alloc], [free] or [copy] row in rules/families.ini"
done
finish
