# PCG Workbench. `make run` and `make test` install what is missing on a fresh Debian machine.
SHELL := /bin/bash
export PATH := /usr/local/go/bin:$(HOME)/go/bin:$(PATH)

# Debian packages: cgo toolchain and headers for Fyne (GLFW, X11 + Wayland), runtime libraries
# Ebiten dlopens, Xvfb for the real-window smoke test (docs/architecture.md: the process model and the two builds).
APT_PKGS := gcc libc6-dev pkg-config ca-certificates libgl1-mesa-dev libx11-dev libxcursor-dev \
	libxrandr-dev libxinerama-dev libxi-dev libxxf86vm-dev libwayland-dev libxkbcommon-dev \
	libasound2 xvfb xauth
# Slurm and munge: the Slurm test of `make test` starts a single-node cluster from them.
APT_PKGS += slurm-wlm munge
# Tiled's own map renderer (tmxrasterizer): the level export test checks our .tmx files with it.
APT_PKGS += tiled
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
XVFB := xvfb-run -a -s "-screen 0 1280x800x24"
GO_TEST_TIMEOUT ?= 20m

.PHONY: deps modules build run test test-race test-flaky vet bench smoke fmt clean

deps: ## Debian packages, only when some are missing (~0.1 s when all are there)
	@command -v go >/dev/null || { echo "Go 1.25+ is required (expected at /usr/local/go)"; exit 1; }
	@dpkg -s $(APT_PKGS) >/dev/null 2>&1 || { \
		echo "installing Debian packages: $(APT_PKGS)"; \
		$(SUDO) apt-get update -q && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -q --no-install-recommends $(APT_PKGS); }

modules: ## Go modules (pinned in go.mod / go.sum)
	@go mod download

build: deps modules
	go build -o bin/workbench ./cmd/workbench

# The Linux desktop package with Fyne's tool (go install fyne.io/tools/cmd/fyne@v1.7.4), from the
# metadata and icon next to the main package (cmd/workbench/FyneApp.toml, Icon.png): a tar.xz
# with the binary, the icon, a .desktop entry (Exec=workbench %F) and an install Makefile, in
# bin/. `fyne package` rewrites FyneApp.toml (Build counted up, comments dropped): it is put
# back. packaging/check-package.sh inspects the result. See docs/packaging.md; for a hand-made
# install, packaging/pcg-workbench.desktop and the same icon.
FYNE ?= fyne
PACKAGE = bin/pcg-workbench-linux-$(shell go env GOARCH).tar.xz
.PHONY: package
package: deps modules
	@command -v $(FYNE) >/dev/null || { echo "fyne is required: go install fyne.io/tools/cmd/fyne@v1.7.4"; exit 1; }
	@mkdir -p bin && cp cmd/workbench/FyneApp.toml bin/.FyneApp.toml.orig
	cd cmd/workbench && $(FYNE) package --os linux --release; s=$$?; \
		cp ../../bin/.FyneApp.toml.orig FyneApp.toml; rm -f ../../bin/.FyneApp.toml.orig; \
		[ $$s = 0 ] && mv "PCG Workbench.tar.xz" ../../$(PACKAGE)
	packaging/check-package.sh $(PACKAGE) cmd/workbench/Icon.png

# The CLI-only build: every command but the window and the play/animate windows, statically
# linked (no libGL, X11, Wayland or glibc needed), for compute nodes and servers. The Go test
# TestCLIOnlyBuild (cmd/workbench, part of `make test`) builds and runs it the same way.
.PHONY: cli
cli: modules
	CGO_ENABLED=0 go build -o bin/workbench-cli ./cmd/workbench

run: build
	@export XDG_RUNTIME_DIR=$${XDG_RUNTIME_DIR:-$$(mktemp -d)}; \
	if [ -n "$$DISPLAY" ] || [ -n "$$WAYLAND_DISPLAY" ]; then ./bin/workbench; \
	else echo "no display found: starting the workbench under Xvfb"; $(XVFB) ./bin/workbench; fi

vet: deps modules
	go vet ./...

test: deps modules vet
	@export XDG_RUNTIME_DIR=$$(mktemp -d); \
	$(XVFB) go test -count=1 -timeout $(GO_TEST_TIMEOUT) ./...

# The unit tier: every test but the slow ones (real windows, the Slurm cluster, sandboxed
# hostile scripts, long physics and protocol runs), which skip under -short; under 2 minutes on
# 2 cores. `make test` runs everything.
.PHONY: test-short
test-short: deps modules
	@export XDG_RUNTIME_DIR=$$(mktemp -d); \
	$(XVFB) go test -short -count=1 -timeout $(GO_TEST_TIMEOUT) ./...

GO_RACE_TIMEOUT ?= 60m

test-race: deps modules ## every test under the race detector (slower: about 5-10x)
	@export XDG_RUNTIME_DIR=$$(mktemp -d); \
	$(XVFB) go test -race -count=1 -timeout $(GO_RACE_TIMEOUT) ./...

test-flaky: deps modules ## the GUI test that used to be flaky, 50 runs in a row
	go test -count=50 -run TestShowTabNamedReachesEveryTab ./app

bench: deps modules
	@mkdir -p out
	@echo "machine: $$(nproc) cores, load average $$(cut -d' ' -f1-3 /proc/loadavg) at start"
	go test -run '^$$' -bench . -benchmem ./problems/... ./games/... | tee out/bench.txt
	@go run ./internal/benchtable < out/bench.txt
	@# generated games: MCTS-100 per move in this process and in a warm sandbox worker, side by side
	go run ./cmd/workbench duel bench | tee out/duel-bench.txt

# The paper's whole protocol (12 problems × random/ES/GA × Q/QT/QTD × 10 runs × 200 generations,
# population 100: 1,080 runs) into out/protocol-2025-01, the constructive runs of Fig. 4 into
# out/protocol-2025-01-fig4, then docs/results.md regenerated from them. As the paper ran it:
# the set diversity of pcg_benchmark 8ad18b6 (--diversity 2025-01, also QTD's diversity term)
# and independent seeds for every fitness and generator (--independent-seeds); the report
# evaluates every final population again under today's set diversity too, for comparison.
# Finished runs are skipped, so an interrupted `make protocol` continues where it stopped. The
# problems that need the reference's data read it from PCG_BENCHMARK_DATA (default:
# ../shared/reference-data/pcg).
PROTOCOL_DIR ?= out/protocol-2025-01
PROTOCOL_JOBS ?= 3
PAPER_PROBLEMS := arcade-v0,binary-v0,building-v0,ddave-v0,elimination-v0,isaac-v0,loderunner-v0,mdungeons-v0,smb-v0,sokoban-v0,talakat-v0,zelda-v0
# The protocol's cost on this machine from real runs: seed 1 of every generator with the three
# fitness functions over the 12 problems at full length (108 runs, a tenth of the protocol, run
# the way `make protocol` runs them: one sweep, its shared cache, the fitness variants of a run
# side by side), CPU time (user + system) of the whole sweep scaled by 10 and divided by the
# cores. CPU time, not wall-clock, so other work on the machine inflates the figure only a
# little; the runs' checkpoints use the default cadence, as `make protocol`'s do. Configured as
# `make protocol` runs: independent seeds for every fitness (so random search's three variants no
# longer share their evaluations) and the paper-era set diversity.
PROTOCOL_ESTIMATE_GENERATORS ?= random,es,ga
.PHONY: protocol-estimate
protocol-estimate: build
	@export PCG_BENCHMARK_DATA=$${PCG_BENCHMARK_DATA:-$(CURDIR)/../shared/reference-data/pcg}; \
	tmp=$$(mktemp -d); trap 'rm -rf $$tmp' EXIT; \
	gens=$(PROTOCOL_ESTIMATE_GENERATORS); ngen=$$(echo $$gens | tr ',' '\n' | wc -l); \
	echo "machine: $$(nproc) cores, load average $$(cut -d' ' -f1-3 /proc/loadavg) at start"; \
	TIMEFORMAT='%U %S %R'; \
	{ time ./bin/workbench sweep --problems $(PAPER_PROBLEMS) --generators $$gens \
		--fitness quality,quality_control,quality_control_diversity --seeds 1 --generations 200 --pop 100 \
		--independent-seeds --diversity 2025-01 \
		--jobs $(PROTOCOL_JOBS) --out $$tmp/sweep > /dev/null 2> $$tmp/log; } 2> $$tmp/time || { cat $$tmp/log; exit 1; }; \
	read user sys wall < $$tmp/time; \
	awk -v u=$$user -v s=$$sys -v w=$$wall -v n=$$ngen -v c=$$(nproc) 'BEGIN { \
		cpu = u + s; runs = 36 * n; scale = 1080 / runs; \
		printf "%d runs (%s, Q/QT/QTD, seed 1, 200 generations): %.0f s CPU (user %.0f + sys %.0f), %.0f s wall\n", runs, "'$$gens'", cpu, u, s, w; \
		printf "projected protocol (1,080 runs): %.0f CPU-minutes, %.0f minutes on %d cores if they are all ours\n", cpu * scale / 60, cpu * scale / 60 / c, c }'; \
	echo "load average $$(cut -d' ' -f1-3 /proc/loadavg) at the end"

.PHONY: protocol
protocol: build
	@export PCG_BENCHMARK_DATA=$${PCG_BENCHMARK_DATA:-$(CURDIR)/../shared/reference-data/pcg}; \
	mkdir -p $(PROTOCOL_DIR); \
	before=$$(find $(PROTOCOL_DIR) -name final.json | wc -l); start=$$(date +%s); \
	./bin/workbench sweep --problems $(PAPER_PROBLEMS) --generators random,es,ga \
		--fitness quality,quality_control,quality_control_diversity --seeds 10 --generations 200 --pop 100 \
		--independent-seeds --diversity 2025-01 --jobs $(PROTOCOL_JOBS) --out $(PROTOCOL_DIR) && \
	./bin/workbench sweep --problems binary-v0,sokoban-v0,zelda-v0 --generators constructive --fitness quality \
		--seeds 10 --generations 0 --pop 100 --independent-seeds --diversity 2025-01 --out $(PROTOCOL_DIR)-fig4 && \
	wall=$$(( $$(date +%s) - start )); \
	note="one make protocol invocation"; [ "$$before" = 0 ] || note="the last make protocol invocation only: $$before runs were finished before it and skipped"; \
	printf '{"wall_s": %d, "jobs": %d, "cpus": %d, "machine": "%s", "started": "%s", "note": "%s"}\n' \
		$$wall $(PROTOCOL_JOBS) $$(nproc) "$$(uname -m) $$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $$(nproc) cores" \
		"$$(date -u -d @$$start +%FT%TZ)" "$$note" > $(PROTOCOL_DIR)/protocol.json; \
	./bin/workbench report --paper $(PROTOCOL_DIR) --out docs/results.md --fig4 $(PROTOCOL_DIR)-fig4

fmt:
	gofmt -w $$(git ls-files '*.go')

clean:
	rm -rf bin out

# The proxy letter classifier for Science Birds (games/birds/classifier): installs the Debian
# font packages the letters are rendered from (the list lives in the training command), then
# trains from the default seed (recorded in weights.json) and rewrites weights.bin and
# weights.json, which the package embeds. About 7-9 minutes on 2 cores; not part of `make test`.
.PHONY: train-classifier
train-classifier: modules
	@pkgs="$$(go run ./games/birds/classifier/train -print-packages)"; \
	dpkg -s $$pkgs >/dev/null 2>&1 || { \
		echo "installing font packages: $$pkgs"; \
		$(SUDO) apt-get update -q && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -q --no-install-recommends $$pkgs; }
	go run ./games/birds/classifier/train $(TRAIN_FLAGS)
