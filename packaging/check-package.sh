#!/bin/sh
# check-package.sh PACKAGE.tar.xz ICON.png: inspects the Linux package `make package` made with
# `fyne package`: the binary, the icon (the repository's Icon.png), and the .desktop entry
# (the app's name from FyneApp.toml, Exec=workbench %F so a launcher can pass files and
# folders, the icon's name, the MIME types). Exits 1 with what is wrong.
set -eu
pkg=$1
icon=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "check-package: $pkg: $*" >&2; exit 1; }
tar -xJf "$pkg" -C "$tmp" || fail "not a tar.xz"
root=$tmp/workbench/usr/local
[ -x "$root/bin/workbench" ] || fail "no executable usr/local/bin/workbench"
[ -f "$tmp/workbench/Makefile" ] || fail "no install Makefile"
png=$root/share/pixmaps/io.github.pcgworkbench.png
cmp -s "$png" "$icon" || fail "the icon usr/local/share/pixmaps/io.github.pcgworkbench.png is not $icon"
desktop=$root/share/applications/io.github.pcgworkbench.desktop
[ -f "$desktop" ] || fail "no usr/local/share/applications/io.github.pcgworkbench.desktop"
for line in "Name=PCG Workbench" "Exec=workbench %F" "Icon=io.github.pcgworkbench" \
	"MimeType=inode/directory;application/json;" "Type=Application"; do
	grep -qxF "$line" "$desktop" || fail "the .desktop entry has no line \"$line\":
$(cat "$desktop")"
done
if command -v desktop-file-validate >/dev/null; then
	desktop-file-validate "$desktop" || fail "desktop-file-validate refuses the .desktop entry"
fi
echo "check-package: $pkg: binary, icon and .desktop entry (Exec=workbench %F) in place"
