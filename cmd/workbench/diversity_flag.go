package main

import (
	"flag"
	"strings"

	"pcgwb/problems"
)

// diversityUsage is the help of --diversity on eval, run, sweep and report.
var diversityUsage = "set-diversity algorithm: " + strings.Join(problems.DiversityAlgorithms(), " or ") +
	" (current: the reference's since February 2025; 2025-01: the one at commit 8ad18b6 the paper's runs used)"

// registerDiversity declares --diversity on fs.
func registerDiversity(fs *flag.FlagSet) *string {
	return fs.String("diversity", string(problems.DiversityCurrent), diversityUsage)
}

// parseDiversity checks a --diversity value (a usage error when it is unknown).
func parseDiversity(s string) (problems.DiversityAlgorithm, error) {
	alg, err := problems.ParseDiversityAlgorithm(s)
	if err != nil {
		return "", usageError{"--diversity: " + err.Error()}
	}
	return alg, nil
}
