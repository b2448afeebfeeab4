package problems

import "context"

// SampleN draws n items of p from seed: for each item its content, then its control, from one
// PCG stream (NewRand). It is the one sampling rule: `workbench sample P -n N --seed S` and the
// workbench's Sample tab both call it, so the same P, N and S give the same items everywhere.
// It stops with ctx's error when ctx is cancelled. A problem that panics while sampling is the
// caller's to recover.
func SampleN(ctx context.Context, p Problem, n int, seed uint64) ([]Item, error) {
	r := NewRand(seed)
	items := make([]Item, max(n, 0))
	for i := range items {
		if i%256 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		items[i] = Item{Content: p.ContentSpace().Sample(r), Control: SampleControl(p, r)}
	}
	return items, nil
}
