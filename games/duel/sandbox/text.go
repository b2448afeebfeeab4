package sandbox

import (
	"os"
	"strings"
)

// secretEnv reports whether an environment variable may hold a credential: API keys and
// tokens (*_KEY, *KEY, *TOKEN*, *SECRET*, *PASSWORD*, *CREDENTIAL*), and everything of the
// OpenAI client's (OPENAI_*). The sandbox worker that runs model-written scripts gets none
// of them.
func secretEnv(name string) bool {
	n := strings.ToUpper(name)
	if strings.HasPrefix(n, "OPENAI_") || strings.HasSuffix(n, "KEY") {
		return true
	}
	for _, w := range []string{"TOKEN", "SECRET", "PASSWORD", "PASSWD", "CREDENTIAL", "_KEY_", "APIKEY", "API_KEY", "AUTH"} {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}

// SandboxEnv is env without the variables that may hold credentials (secretEnv); a nil env
// means the current process's environment.
func SandboxEnv(env []string) []string {
	if env == nil {
		env = os.Environ()
	}
	out := make([]string, 0, len(env))
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if secretEnv(name) {
			continue
		}
		out = append(out, kv)
	}
	return out
}
