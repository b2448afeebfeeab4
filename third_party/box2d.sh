#!/bin/sh
# The box2d fork's provenance (third_party/box2d/UPSTREAM):
#   third_party/box2d.sh verify   the pristine upstream module (go mod download: the Go module
#                                 proxy or the module cache) with third_party/box2d.patch
#                                 applied is third_party/box2d, file for file (UPSTREAM aside),
#                                 and the module's checksum is the one recorded
#   third_party/box2d.sh update   rewrites third_party/box2d.patch from the fork as it is
# Needs go, diff and patch.
set -eu
cd "$(dirname "$0")"
field() { sed -n "s/^$1 //p" box2d/UPSTREAM; }
module=$(field module)
version=$(field version)
sum=$(field sum)
json=$(go mod download -json "$module@$version")
dir=$(printf '%s\n' "$json" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
got=$(printf '%s\n' "$json" | sed -n 's/^[[:space:]]*"Sum": "\(.*\)",*$/\1/p')
if [ -z "$dir" ] || [ ! -d "$dir" ]; then
	printf 'box2d: go mod download gave no folder for %s@%s:\n%s\n' "$module" "$version" "$json" >&2
	exit 1
fi
if [ "$got" != "$sum" ]; then
	echo "box2d: $module@$version has checksum $got, UPSTREAM records $sum" >&2
	exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -R "$dir" "$tmp/a"
chmod -R u+w "$tmp/a"
case "${1:-verify}" in
update)
	mkdir "$tmp/b"
	(cd box2d && tar -cf - --exclude=./UPSTREAM .) | (cd "$tmp/b" && tar -xf -)
	# Unified diff without timestamps, so that the same fork gives the same patch.
	(cd "$tmp" && diff -ruN a b) | sed -e 's/^\(--- [^\t]*\)\t.*/\1/' -e 's/^\(+++ [^\t]*\)\t.*/\1/' > box2d.patch.new || true
	mv box2d.patch.new box2d.patch
	echo "box2d: wrote third_party/box2d.patch ($(wc -l < box2d.patch) lines)"
	;;
verify)
	(cd "$tmp/a" && patch -p1 -s -E --no-backup-if-mismatch) < box2d.patch
	if ! diff -r -x UPSTREAM "$tmp/a" box2d > "$tmp/diff"; then
		echo "box2d: third_party/box2d is not $module@$version with third_party/box2d.patch applied:" >&2
		head -c 4000 "$tmp/diff" >&2
		exit 1
	fi
	echo "box2d: third_party/box2d = $module@$version ($sum) + third_party/box2d.patch"
	;;
*)
	echo "usage: third_party/box2d.sh [verify|update]" >&2
	exit 2
	;;
esac
