package feed_test

import (
	"testing"

	"kafkascope/core/feed"
)

func TestFixKoreanParticles(t *testing.T) {
	for in, want := range map[string]string{
		"브로커 3가 멈췄습니다":       "브로커 3이 멈췄습니다",
		"브로커 2이 멈췄습니다":       "브로커 2가 멈췄습니다",
		"노드 1가 리더입니다.":       "노드 1이 리더입니다.",
		"에포크 10를 엽니다":        "에포크 10을 엽니다",
		"오프셋 4을 읽습니다":        "오프셋 4를 읽습니다",
		"브로커 6와 7과":          "브로커 6과 7과",
		"파티션 9과 2와":          "파티션 9와 2와",
		"브로커 1으로 옮깁니다":       "브로커 1로 옮깁니다",
		"브로커 3로 옮깁니다":        "브로커 3으로 옮깁니다",
		"브로커 2으로":            "브로커 2로",
		"kafka-3가 반영했습니다":    "kafka-3이 반영했습니다",
		"3는":                 "3은",
		"2가지 이유":             "2가지 이유", // a word, not a particle
		"3이닝":                "3이닝",
		"브로커 3(kafka-3)이 멈춤": "브로커 3(kafka-3)이 멈춤", // not after the number
		"0가":                 "0이",
		"100를":               "100을",
		"no Korean 3가 here":  "no Korean 3이 here",
		"plain English 3 is": "plain English 3 is",
	} {
		if got := feed.FixKoreanParticles(in); got != want {
			t.Errorf("FixKoreanParticles(%q) = %q, want %q", in, got, want)
		}
	}
}
