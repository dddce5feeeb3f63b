#!/usr/bin/env bash
# The house's counts, each from one grep that anyone can run again: what a caller below a handler
# knows of a store that moves, the single scan's special cases in the run machinery, where a call's
# name is declared, what the docs cite that the repository does not hold, and the fixed waits in
# tests. `bash scripts/house-counts.sh` prints each count; `--list` prints the lines counted too.
set -uo pipefail
cd "$(dirname "$0")/.."
list=${1:-}

show() { # show TITLE COUNT LINES
  printf '%-58s %s\n' "$1" "$2"
  if [ "$list" = --list ] && [ -n "$3" ]; then printf '%s\n' "$3" | sed 's/^/    /'; fi
}
count() { if [ -z "$1" ]; then echo 0; else printf '%s\n' "$1" | wc -l; fi; }

# 1. Names of a store that moves, outside src/main/store: the printing store and its place, a
# journal pinned to the engine in use, the maps keyed by engine, the order index re-reading its
# dialect, a registry told that its store moved, and a second engine opened by the composition.
moving=$(grep -rnE "\b(engineInUse|placeOf|storeMoved|runStores|createPrintingStore|PrintingStore|PrintingPlace|marksOn)\b|printing-store|\.pinned\(\)|\bpins\b|statements\?\.dialect|journal\.place\b|new SqliteEngine" src --include='*.ts' --include='*.tsx' | grep -v '^src/main/store/')
show "moving-store names outside the store (lines)" "$(count "$moving")" "$moving"

# 2. The single scan as a special case of the run machinery: `urgent` (any case) in printing's code,
# not the words "most urgent" of a fault list; and a run's kind compared with 'single'.
urgent=$(grep -rniE "urgent" src/main/printing --include='*.ts' | grep -viE "most urgent")
show "'urgent' in src/main/printing (lines)" "$(count "$urgent")" "$urgent"
single=$(grep -rnE "kind [!=]==? 'single'" src/main/printing --include='*.ts')
show "run kind compared with 'single' in src/main/printing" "$(count "$single")" "$single"

# 3. Where a call's name is declared: its contract entry (`'x.y': defineCall`) and every list or
# union that names it again (a name between `[`, `,`, `|`, `<` and `,`, `|`, `>`, `]` or the line's
# end, in src and test/support). Calling a call (`station['x.y'](`, `dispatch('x.y', …)`), naming
# its types (`CallOutput<'x.y'>`) and a handler's own key (`'x.y': async`) are uses, not declarations.
mapfile -t names < <(grep -rhoP "^\s*'\K[a-z]+\.[a-zA-Z]+(?=': defineCall)" src/shared/contract | sort -u)
most=0 most_name='' total=0 places_list=''
for name in "${names[@]}"; do
  quoted="'${name//./\\.}'"
  files=$(grep -rnP "(^\s*|[\[,|<=]\s*)${quoted}(?!\s*\]\s*\()(?=\s*([,|>\];]|$))" src test/support --include='*.ts' --include='*.tsx' \
    | grep -vP "[\w>]\((\w+, )*${quoted}|\w<${quoted}>|[\w)\]]\[${quoted}\]" | cut -d: -f1 | sort -u)
  places=$(( $(count "$files") + 1 ))
  total=$(( total + places ))
  if [ "$places" -gt "$most" ]; then most=$places; most_name=$name; fi
  [ "$places" -gt 1 ] && places_list+="$name: $places (contract entry and $(printf '%s' "$files" | tr '\n' ' '))"$'\n'
done
show "calls in the contract" "${#names[@]}" ""
show "places a call's name is declared, at most (${most_name:-none})" "$most" "${places_list%$'\n'}"
show "places call names are declared, all calls together" "$total" ""

# 4. What the docs cite that the repository does not hold: the design card, a section a page
# names that has no such heading in that page, and a path of the repository that does not exist.
design=$(grep -rnE "DESIGN\.md|design card" README.md docs --include='*.md')
sections=$(grep -rnoP "docs/[a-z-]+\.md\`?,? \"[^\"]+\"" README.md docs src test --include='*.md' --include='*.ts' --include='*.tsx' | while IFS= read -r hit; do
  cited_as=${hit#*:*:}
  page=$(printf '%s' "$cited_as" | grep -oP "docs/[a-z-]+\.md" | head -1)
  section=$(printf '%s' "$hit" | grep -oP '"\K[^"]+(?="$)')
  grep -iqF -- "$section" <(grep -E '^#+ ' "$page" 2>/dev/null) || printf '%s\n' "$hit"
done)
paths=$(for page in README.md docs/*.md; do
  grep -noP "(?<![\w/.-])(src|test|docs|scripts|bench)/[A-Za-z0-9_./*-]*\.(ts|tsx|md|mjs|js|sh|json)\b" "$page" | while IFS=: read -r line path; do
    compgen -G "$path" >/dev/null || printf '%s:%s: %s\n' "$page" "$line" "$path"
  done
done)
cited="$design${design:+$'\n'}$sections${sections:+$'\n'}$paths"
cited=$(printf '%s' "$cited" | sed '/^$/d')
show "docs citing what is not in the repository (lines)" "$(count "$cited")" "$cited"
diary=$(grep -nE "^#+ .*\((issue|step) [0-9]+" docs/*.md)
show "diary headings in docs ('(issue N)', '(step N)')" "$(count "$diary")" "$diary"
architecture=$(wc -l <docs/architecture.md)
show "lines of docs/architecture.md" "$architecture" ""

# 5. Waits with a fixed duration in tests: a promise resolved by a timer, awaited in place, and each
# call of a helper that only sleeps (found by its definition). Waiting for a condition
# (test/support/wait-until.ts) and an injected clock's sleep are not counted.
mapfile -t sleepers < <(grep -rhoP "(const|function) \K\w+(?= = \([^)]*\)(: Promise<void>)? => new Promise(<void>)?\(\((resolve|done|r)\) => setTimeout\((resolve|done|r), )" test --include='*.ts' | sort -u)
helpers=$(IFS='|'; printf '%s' "${sleepers[*]}")
inline=$(grep -rnP "await new Promise(<void>)?\(\((resolve|done|r)\) => setTimeout\((resolve|done|r), " test --include='*.ts' | grep -v '^test/support/wait-until.ts:' | grep -v '^test/fixtures/')
calls=''
[ -n "$helpers" ] && calls=$(grep -rnP "(?<![.\w])($helpers)\((?!\w+: )" test --include='*.ts' | grep -vP "(const|function) ($helpers) = |^[^:]+:[0-9]+:\s*(\*|//|/\*)" | grep -v '^test/fixtures/')
sleeps=$(printf '%s\n%s' "$inline" "$calls" | sed '/^$/d')
show "fixed sleeps in tests (lines)" "$(count "$sleeps")" "$sleeps"
helper_definitions=$(grep -rnP "(const|function) ($helpers) = \([^)]*\)(: Promise<void>)? => new Promise(<void>)?\(\((resolve|done|r)\) => setTimeout\(" test --include='*.ts' | grep -v '^test/fixtures/')
show "local sleep helpers in tests" "$(count "$helper_definitions")" "$helper_definitions"
files=$(printf '%s\n' "$sleeps" | sed '/^$/d' | cut -d: -f1 | sort -u)
show "test files with a fixed sleep" "$(count "$files")" ""
