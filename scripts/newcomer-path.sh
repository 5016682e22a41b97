#!/usr/bin/env bash
# Prints a PATH like the given one (default: $PATH) from which every global pnpm, pnpx and turbo is
# gone, as on a newcomer's machine that has only Node and npm. A directory holding one of them is
# replaced by a shadow directory of symlinks to everything else it holds, so node, npm and the rest
# of that directory stay reachable. The shadow directories live under $1 (a temporary directory).
set -euo pipefail
shadow_root=$1
source_path=${2:-$PATH}
hidden=(pnpm pnpx turbo)

holds_hidden() {
  local dir=$1 name
  for name in "${hidden[@]}"; do [ -e "$dir/$name" ] && return 0; done
  return 1
}

result=()
index=0
IFS=: read -ra entries <<< "$source_path"
for dir in "${entries[@]}"; do
  [ -n "$dir" ] || continue
  if [ -d "$dir" ] && holds_hidden "$dir"; then
    index=$((index + 1))
    shadow="$shadow_root/$index"
    mkdir -p "$shadow"
    for entry in "$dir"/* "$dir"/.[!.]*; do
      [ -e "$entry" ] || [ -L "$entry" ] || continue
      name=${entry##*/}
      case " ${hidden[*]} " in *" $name "*) continue ;; esac
      ln -s "$entry" "$shadow/$name"
    done
    result+=("$shadow")
  else
    result+=("$dir")
  fi
done
(IFS=:; printf '%s\n' "${result[*]}")
