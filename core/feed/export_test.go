package feed

// Sentences is the catalog, key to its English and Korean sentence, and
// Unexplained the notes left out of it on purpose: for the external tests.
func Sentences() map[string][2]string {
	out := map[string][2]string{}
	for k, t := range catalog {
		out[k] = [2]string{t.en, t.ko}
	}
	return out
}

var Unexplained = unexplained
