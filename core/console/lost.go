package console

import (
	"fmt"
	"strconv"
	"strings"

	"kafkascope/core/sim"
)

// cmdLost lists committed data the cluster lost (cluster.LostRange): what
// an unclean election, the old high-watermark truncation or a power loss
// threw away after it had been acknowledged. No Kafka tool can show this;
// the simulator knows every replica. It takes no simulated time.
func (s *Session) cmdLost(args []string) {
	if len(args) != 0 {
		s.print("usage: lost")
		return
	}
	if !s.needCluster("lost") {
		return
	}
	losses := s.cluster.Losses()
	if len(losses) == 0 {
		s.print("lost: no committed record has been lost")
		return
	}
	for _, l := range losses {
		span := fmt.Sprintf("offset %d", l.From)
		if l.To-l.From > 1 {
			span = fmt.Sprintf("offsets %d-%d", l.From, l.To-1)
		}
		line := fmt.Sprintf("%s: %s lost at %s when broker %d became leader (epoch %d) without them",
			l.Partition, span, clockText(l.At), l.Leader, l.Epoch)
		if len(l.Values) > 0 {
			var vs []string
			for i, v := range l.Values {
				if i == MaxShownRecords {
					vs = append(vs, "...")
					break
				}
				vs = append(vs, strconv.Quote(string(v)))
			}
			line += ": " + strings.Join(vs, ", ")
		}
		s.print(line)
	}
}

// clockText is a virtual time as the simulated clock shows it (the same
// wall clock the log lines use).
func clockText(t sim.Time) string { return t.Wall().Format("15:04:05.000") }
