#!/usr/bin/env bash
# Regenerates the README's screenshots with the workbench's own --screenshot support, from
# the real binary (no test problems in the picker), on real problems. Needs a display or Xvfb
# (xvfb-run is used when there is none) and the reference data for Super Mario Bros (set
# PCG_BENCHMARK_DATA, or run `workbench data download` first). Run from the repository root:
#
#	bash docs/screens/regenerate.sh
#
# Look at every picture before committing it: a screenshot is only checked for being drawn.
set -euo pipefail
if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
	exec xvfb-run -a -s "-screen 0 1600x1000x24" bash "$0" "$@"
fi
out=docs/screens
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/workbench" ./cmd/workbench
wb="$work/workbench"
export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-$work}
# The windows run with default settings (theme, seed, output folder) in a home of their own;
# the data folder in use is kept.
if [ -z "${PCG_BENCHMARK_DATA:-}" ]; then
	PCG_BENCHMARK_DATA=$("$wb" data status | sed -n 's/^directory: \(.*\) (.*)$/\1/p')
	export PCG_BENCHMARK_DATA
fi
export HOME=$work/home XDG_CONFIG_HOME=$work/home/.config XDG_CACHE_HOME=$work/home/.cache
mkdir -p "$XDG_CONFIG_HOME" "$XDG_CACHE_HOME"

# Small recorded runs of Zelda for the Compare and Range pictures: random search, ES and GA,
# three seeds each.
for g in random es ga; do
	for s in 1 2 3; do
		"$wb" run --problem zelda-v0 --generator "$g" --fitness quality --generations 20 --pop 40 \
			--seed "$s" --out "$work/runs/$g/$s" >/dev/null
	done
done

shot() { # NAME ARGS...: one window, saved once its first sample (or run) is drawn
	local name=$1
	shift
	"$wb" "$@" --screenshot "$out/$name" --exit-after 300s
	echo "wrote $out/$name"
}
shot sample.png --problem zelda-v0 --seed 0
shot sample-smb.png --problem smb-v0 --seed 2 -n 4
shot run-ga.png --problem sokoban-v0 --run ga --generations 25 --pop 40 --seed 1 --out "$work/gui-runs"
shot editor.png --problem zelda-v0 --seed 4 --tab editor
shot compare.png --problem zelda-v0 --open "$work/runs"
shot expressive.png --problem zelda-v0 --open "$work/runs/ga/1" --tab expressive
# Science Birds: a level of the evaluator's samples (the letter L) simulated until it settles
"$wb" birds animate ../shared/science-birds/evaluator-samples/V1_L_1.xml --speed 4 \
	--screenshot "$out/birds.png" --exit-after 120s
echo "wrote $out/birds.png"
shot games.png --problem sokoban-v0 --tab games
