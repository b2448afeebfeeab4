package birds

import (
	"os/exec"
	"path/filepath"
	"testing"
)

// The box2d fork is the upstream module named in third_party/box2d/UPSTREAM with
// third_party/box2d.patch applied, nothing else (third_party/box2d.sh verify: it downloads the
// pristine module through the Go module proxy, or finds it in the module cache).
func TestBox2DForkIsUpstreamPlusPatch(t *testing.T) {
	if testing.Short() {
		t.Skip("downloads the upstream module (-short)")
	}
	out, err := exec.Command("sh", filepath.Join("..", "..", "third_party", "box2d.sh"), "verify").CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	t.Logf("%s", out)
}
