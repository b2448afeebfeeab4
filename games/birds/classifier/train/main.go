// Command train trains the proxy letter classifier and writes weights.bin and weights.json
// into games/birds/classifier (embedded by the package at the next build). Run it through
// `make train-classifier`, which first installs the Debian font packages it renders letters
// from. The same seed, steps, fonts and Go version give the same weights.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"time"

	"pcgwb/games/birds/classifier"
	"pcgwb/internal/testshared"
)

// fontPackages are the Debian font packages the letters are rendered from: sans, serif, slab,
// monospace, rounded, geometric, humanist and a few handwriting-like families with Latin
// capitals. `make train-classifier` installs them (it asks this command for the list).
var fontPackages = []string{
	"fonts-dejavu-core", "fonts-dejavu-extra", "fonts-liberation2", "fonts-freefont-ttf", "fonts-noto-core",
	"fonts-urw-base35", "fonts-croscore", "fonts-crosextra-carlito", "fonts-crosextra-caladea", "fonts-go",
	"fonts-roboto-unhinted", "fonts-roboto-slab", "fonts-open-sans", "fonts-lato", "fonts-cantarell",
	"fonts-comic-neue", "fonts-dosis", "fonts-quicksand", "fonts-ebgaramond", "fonts-hack", "fonts-inconsolata",
	"fonts-jetbrains-mono", "fonts-linuxlibertine", "fonts-cabin", "fonts-karla", "fonts-b612",
	"fonts-beteckna", "fonts-league-spartan", "fonts-jura", "fonts-play", "fonts-oldstandard", "fonts-paratype",
	"fonts-tuffy", "fonts-humor-sans", "fonts-bebas-neue", "fonts-manrope", "fonts-sora", "fonts-anonymous-pro",
	"fonts-adf-gillius", "fonts-adf-universalis", "fonts-adf-baskervald", "fonts-stix", "fonts-averia-gwf",
	"fonts-prociono", "fonts-tomsontalks", "fonts-firacode", "fonts-inter",
}

// handwritingPackages are Debian fonts that imitate handwritten capitals. They are read only
// with -handwriting > 0 (the Handwritten sample kind), so the shipped weights, trained without
// them, stay reproducible from weights.json.
var handwritingPackages = []string{
	"fonts-dkg-handwriting", "fonts-breip", "fonts-bwht", "fonts-femkeklaver", "fonts-rufscript", "fonts-klee",
}

// packageFonts lists the font files of the packages (dpkg -L) and their versions, so that
// fonts other software installed do not change the training. Without dpkg it returns nil.
func packageFonts(packages []string) (files, versions []string) {
	if _, err := exec.LookPath("dpkg"); err != nil {
		return nil, nil
	}
	for _, p := range packages {
		out, err := exec.Command("dpkg", "-L", p).Output()
		if err != nil {
			fmt.Fprintf(os.Stderr, "train: package %s is not installed (make train-classifier installs it)\n", p)
			continue
		}
		for _, f := range strings.Split(string(out), "\n") {
			if classifier.IsFontFile(f) && strings.HasPrefix(f, classifier.FontDir+"/") {
				if info, err := os.Stat(f); err == nil && info.Mode().IsRegular() {
					files = append(files, f)
				}
			}
		}
		if v, err := exec.Command("dpkg-query", "-W", "-f", "${Version}", p).Output(); err == nil {
			versions = append(versions, p+" "+string(v))
		}
	}
	return files, versions
}

func main() {
	def := classifier.DefaultTrainConfig()
	seed := flag.Uint64("seed", def.Seed, "random seed (initial weights, samples, block pool)")
	steps := flag.Int("steps", def.Steps, "training steps")
	batch := flag.Int("batch", def.Batch, "batch size")
	workers := flag.Int("workers", def.Workers, "goroutines (the weights do not depend on it)")
	lr := flag.Float64("lr", def.LR, "peak learning rate")
	fontDir := flag.String("fonts", classifier.FontDir, "font directory")
	poolSize := flag.Int("pool", 200, "block letters per letter in the training pool")
	testPool := flag.Int("test-pool", 30, "block letters per letter held out for testing")
	out := flag.String("out", "", "output directory (default: games/birds/classifier of this module)")
	unity := flag.String("unity", "", "archived Unity images to report accuracy on (default: ../shared/science-birds/unity-run-2023-03/images if present)")
	printPackages := flag.Bool("print-packages", false, "print the Debian font packages and exit")
	handwriting := flag.Float64("handwriting", def.HandwrittenFrac, "share of font samples drawn as handwriting (stroke jitter, 28-pixel letters; handwriting fonts when installed)")
	flag.Parse()
	if *printPackages {
		fmt.Println(strings.Join(append(append([]string(nil), fontPackages...), handwritingPackages...), " "))
		return
	}
	if err := run(*seed, *steps, *batch, *workers, *lr, *fontDir, *poolSize, *testPool, *out, *unity, *handwriting); err != nil {
		fmt.Fprintln(os.Stderr, "train:", err)
		os.Exit(1)
	}
}

func run(seed uint64, steps, batch, workers int, lr float64, fontDir string, poolSize, testPool int, out, unity string, handwriting float64) error {
	start := time.Now()
	root, err := testshared.ModuleRoot()
	if err != nil {
		return err
	}
	if out == "" {
		out = filepath.Join(root, "games", "birds", "classifier")
	}
	if unity == "" {
		shared, err := testshared.Root()
		if err != nil {
			return err
		}
		unity = filepath.Join(shared, "science-birds", "unity-run-2023-03", "images")
	}
	var faces []*classifier.Face
	files, versions := packageFonts(fontPackages)
	if fontDir == classifier.FontDir && len(files) > 0 {
		faces, err = classifier.LoadFaceFiles(fontDir, files)
	} else {
		faces, err = classifier.LoadFaces(fontDir)
	}
	if err != nil {
		return err
	}
	fonts := classifier.FontSummary{Dir: fontDir}
	train, test := splitByFamily(faces, &fonts)
	fmt.Printf("fonts: %d faces (%d train, %d held out by family) from %s\n", len(faces), len(train), len(test), fontDir)
	var handTrain, handTest []*classifier.Face
	if handwriting > 0 {
		hfiles, hversions := packageFonts(handwritingPackages)
		hfaces, err := classifier.LoadFaceFiles(classifier.FontDir, hfiles)
		if err != nil {
			return err
		}
		versions = append(versions, hversions...)
		handTrain, handTest = splitByFamily(hfaces, &fonts)
		fmt.Printf("handwriting fonts: %d faces (%d train, %d held out by family), share %.2f of font samples\n", len(hfaces), len(handTrain), len(handTest), handwriting)
	}

	t := time.Now()
	pool := classifier.GenerateBlockPool(seed, poolSize, 12*poolSize, workers, train)
	testBlocks := classifier.GenerateBlockPool(seed+1, testPool, 12*testPool, workers, test)
	counts := map[string]int{}
	for _, b := range pool {
		counts[string(rune('A'+b.Letter))]++
	}
	fmt.Printf("block letters: %d for training, %d held out (%s)\n", len(pool), len(testBlocks), time.Since(t).Round(time.Second))
	fmt.Printf("  per letter: %v\n", counts)

	clean, augmented := heldOutFonts(test, seed)
	blockStatic, blockSettled := blockSets(testBlocks)
	cfg := classifier.DefaultTrainConfig()
	cfg.Seed, cfg.Steps, cfg.Batch, cfg.Workers, cfg.LR = seed, steps, batch, workers, lr
	cfg.Faces, cfg.Blocks, cfg.Log = train, pool, os.Stdout
	cfg.HandwrittenFrac, cfg.HandFaces = handwriting, handTrain
	// Every held-out face (printed and handwriting) drawn as handwriting, once per letter.
	handHeldOut := heldOutHandwriting(append(append([]*classifier.Face(nil), test...), handTest...), seed)
	cfg.EvalEvery = 1000
	cfg.Eval = func(step int, n *classifier.Net) {
		a1, _, _ := classifier.Accuracy(n, clean)
		a2, _, _ := classifier.Accuracy(n, augmented)
		a3, _, _ := classifier.Accuracy(n, blockSettled)
		fmt.Printf("  held out at step %d: clean fonts %.3f, augmented fonts %.3f, settled block letters %.3f\n", step, a1, a2, a3)
	}
	t = time.Now()
	net, err := classifier.Train(cfg)
	if err != nil {
		return err
	}
	trainTime := time.Since(t)
	q := net.Quantized()
	meta := &classifier.Meta{
		Seed: seed, Steps: steps, BatchSize: batch, Params: q.ParamCount(),
		TrainSeconds: time.Since(start).Seconds(), GoVersion: runtime.Version(),
		FontPackages: versions, Fonts: fonts, BlockPool: counts, Accuracy: map[string]float64{}, PerLetter: map[string]string{},
		Notes: fmt.Sprintf("workers %d, lr %g, pool %d/letter, test pool %d/letter, handwriting share %g; training loop %s", workers, lr, poolSize, testPool, handwriting, trainTime.Round(time.Second)),
	}
	report := func(key string, set classifier.LabelledInputs) {
		acc, mean, conf := classifier.Accuracy(q, set)
		meta.Accuracy[key] = round4(acc)
		meta.Accuracy[key+"MeanTrueProb"] = round4(mean)
		meta.PerLetter[key] = perLetter(conf)
		fmt.Printf("%-22s top-1 %.4f  mean p(true) %.4f  (%d images)\n", key, acc, mean, len(set.Inputs))
		fmt.Printf("  per letter: %s\n", meta.PerLetter[key])
	}
	report("heldOutFontsClean", clean)
	report("heldOutFontsAugmented", augmented)
	report("heldOutBlocksStatic", blockStatic)
	report("heldOutBlocksSettled", blockSettled)
	report("heldOutHandwriting", handHeldOut)
	if _, err := os.Stat(unity); err == nil {
		c := classifier.New(q, meta)
		rs, err := classifier.ClassifyArchive(context.Background(), c, unity)
		if err != nil {
			return err
		}
		s := classifier.SummarizeArchive(rs)
		meta.Accuracy["unityILU"] = round4(s.Accuracy())
		meta.Accuracy["unityILUMeanTrueProb"] = round4(s.MeanProb)
		meta.Accuracy["unityILUTop3"] = round4(float64(s.Top3) / float64(s.N))
		var parts []string
		for _, l := range []byte("ILU") {
			v := s.PerLetter[l]
			parts = append(parts, fmt.Sprintf("%c %d/%d", l, v[0], v[1]))
		}
		meta.PerLetter["unityILU"] = strings.Join(parts, ", ")
		fmt.Printf("%-22s top-1 %.4f  top-3 %.4f  mean p(true) %.4f  (%s)\n", "unityILU", s.Accuracy(), float64(s.Top3)/float64(s.N), s.MeanProb, meta.PerLetter["unityILU"])
	}
	meta.TrainSeconds = round4(time.Since(start).Seconds())
	data, err := q.MarshalBinary()
	if err != nil {
		return err
	}
	js, err := json.MarshalIndent(meta, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(out, "weights.bin"), data, 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(out, "weights.json"), append(js, '\n'), 0o644); err != nil {
		return err
	}
	fmt.Printf("wrote %s (%d bytes) and weights.json in %s\n", filepath.Join(out, "weights.bin"), len(data), time.Since(start).Round(time.Second))
	return nil
}

func round4(v float64) float64 { return float64(int64(v*10000+0.5)) / 10000 }

// heldOutFonts renders every held-out face: each letter once undistorted, and twice with the
// training augmentations (one smooth, one on a coarse grid).
func heldOutFonts(faces []*classifier.Face, seed uint64) (clean, augmented classifier.LabelledInputs) {
	for fi, f := range faces {
		for l := 0; l < classifier.Classes; l++ {
			if in, ok := classifier.RenderFontSample(f, l, classifier.Clean, nil); ok {
				clean.Inputs, clean.Labels = append(clean.Inputs, in), append(clean.Labels, l)
			}
			rng := rand.New(rand.NewPCG(seed^0xfeed, uint64(fi*classifier.Classes+l)))
			for _, kind := range []classifier.FontSampleKind{classifier.Smooth, classifier.Blocky} {
				if in, ok := classifier.RenderFontSample(f, l, kind, rng); ok {
					augmented.Inputs, augmented.Labels = append(augmented.Inputs, in), append(augmented.Labels, l)
				}
			}
		}
	}
	return
}

// heldOutHandwriting draws every held-out face's letters once as handwriting.
func heldOutHandwriting(faces []*classifier.Face, seed uint64) (set classifier.LabelledInputs) {
	for fi, f := range faces {
		for l := 0; l < classifier.Classes; l++ {
			rng := rand.New(rand.NewPCG(seed^0xbeef, uint64(fi*classifier.Classes+l)))
			if in, ok := classifier.RenderFontSample(f, l, classifier.Handwritten, rng); ok {
				set.Inputs, set.Labels = append(set.Inputs, in), append(set.Labels, l)
			}
		}
	}
	return
}

func blockSets(bs []*classifier.BlockSample) (static, settled classifier.LabelledInputs) {
	sort.SliceStable(bs, func(i, j int) bool { return bs[i].Letter < bs[j].Letter })
	for _, b := range bs {
		static.Inputs, static.Labels = append(static.Inputs, b.Static), append(static.Labels, b.Letter)
		if b.Settled != nil {
			settled.Inputs, settled.Labels = append(settled.Inputs, b.Settled), append(settled.Labels, b.Letter)
		}
	}
	return
}

func perLetter(conf [classifier.Classes][classifier.Classes]int) string {
	var parts []string
	for l := 0; l < classifier.Classes; l++ {
		n := 0
		for _, v := range conf[l] {
			n += v
		}
		if n == 0 {
			continue
		}
		worst, wn := -1, 0
		for p, v := range conf[l] {
			if p != l && v > wn {
				worst, wn = p, v
			}
		}
		s := fmt.Sprintf("%c %.2f", 'A'+l, float64(conf[l][l])/float64(n))
		if worst >= 0 {
			s += fmt.Sprintf(" (→%c %d)", 'A'+worst, wn)
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, "; ")
}

// splitByFamily holds out the faces of the test families (classifier.TestFamily) and records
// every face's file in fonts, in the order given.
func splitByFamily(faces []*classifier.Face, fonts *classifier.FontSummary) (train, test []*classifier.Face) {
	for _, f := range faces {
		if classifier.TestFamily(f.Family) {
			test = append(test, f)
			fonts.Test = append(fonts.Test, f.File)
		} else {
			train = append(train, f)
			fonts.Train = append(fonts.Train, f.File)
		}
	}
	return train, test
}
