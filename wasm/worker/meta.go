package main

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"kafkascope/core/i18n"
	"kafkascope/core/player"
	"kafkascope/core/scenario"
	"kafkascope/core/timeline"
)

// linkMeta is what a link preview says of a share link: its title and a
// description, in the link's language. It is read from the link alone,
// without its replay (a preview page is asked for by every visitor).
type linkMeta struct {
	Lang        i18n.Lang
	Title       string
	Description string
}

// maxDescription bounds a description in characters: previews show two
// or three lines of it.
const maxDescription = 300

// metaOf reads a share link's #part as the page does, checking it
// without its replay (its fields, its scenario, a session's data and
// limits), and describes it.
func metaOf(fields string) (linkMeta, error) {
	if len(fields) > player.MaxHashBytes {
		return linkMeta{}, fmt.Errorf("the link is longer than %d characters", player.MaxHashBytes)
	}
	st, err := player.ParseURL("", "#"+fields)
	if err != nil {
		return linkMeta{}, err
	}
	m := linkMeta{Lang: st.Lang}
	if m.Lang == "" {
		m.Lang = i18n.English
	}
	ko := m.Lang == i18n.Korean
	switch {
	case st.Scenario != "":
		sc, err := scenario.Get(st.Scenario)
		if err != nil {
			return linkMeta{}, fmt.Errorf("%w: %w", player.ErrBadLink, err)
		}
		tr := sc.Transcript
		title := tr.Title
		if ko && tr.TitleKo != "" {
			title = tr.TitleKo
		}
		// The player plays to the step asked for, or the nearest one.
		n := len(tr.Steps)
		step := max(0, min(st.Step, n-1))
		m.Title = fmt.Sprintf("%s (%d/%d) · kafkascope", title, step+1, n)
		if step >= 0 {
			m.Description = tr.Steps[step].Text
			if ko && tr.Steps[step].TextKo != "" {
				m.Description = tr.Steps[step].TextKo
			}
		}
	case st.Session != "":
		lines, err := timeline.Commands(st.Session)
		if err != nil {
			return linkMeta{}, fmt.Errorf("%w: %w", player.ErrBadLink, err)
		}
		m.Title = pick(ko, "A Kafka cluster, shared · kafkascope", "공유된 Kafka 클러스터 · kafkascope")
		m.Description = fmt.Sprintf(pick(ko, "%d commands: %s", "명령 %d개: %s"), len(lines), strings.Join(lines, " · "))
	case st.Sim != nil:
		m.Title = fmt.Sprintf(pick(ko, "The fault simulator, seed %d · kafkascope", "결함 시뮬레이터, 시드 %d · kafkascope"), st.Sim.Seed)
		m.Description = pick(ko,
			"A randomized run of crashes, power losses and partitions against a Kafka cluster, checked against Kafka's guarantees, replayed in the browser.",
			"Kafka 클러스터에 크래시, 전원 차단, 네트워크 분할을 무작위로 일으키고 Kafka가 약속하는 것을 지키는지 검사한 실행을 브라우저에서 다시 봅니다.")
	default:
		return linkMeta{}, errNoFields
	}
	m.Description = clip(m.Description, maxDescription)
	return m, nil
}

func pick(ko bool, en, koText string) string {
	if ko {
		return koText
	}
	return en
}

// clip shortens s to at most n characters, at a space where there is
// one, and marks the cut with an ellipsis.
func clip(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)[:n-1]
	cut := string(r)
	if i := strings.LastIndexByte(cut, ' '); i > len(cut)/2 {
		cut = cut[:i]
	}
	return cut + "…"
}
