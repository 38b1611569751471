module kafkascope

go 1.26.0

require (
	github.com/hack-pad/safejs v0.1.0 // indirect
	github.com/twmb/franz-go/pkg/kmsg v1.15.0 // indirect
)
