package feed

import (
	"strings"
	"unicode/utf8"
)

// Korean particles change with the sound the word before them ends in:
// 가/이 (subject), 는/은 (topic), 를/을 (object), 와/과 (and), 로/으로
// (to, by). A template writes one form after a number it fills in, and the
// number decides: "브로커 {broker}가" reads 브로커 2가 but 브로커 3이
// (삼 ends in a consonant).

// particlePairs maps each form to its pair: [after a vowel, after a
// consonant]. 로 also follows ㄹ (일, 칠, 팔).
var particlePairs = map[string][2]string{
	"가": {"가", "이"}, "이": {"가", "이"},
	"는": {"는", "은"}, "은": {"는", "은"},
	"를": {"를", "을"}, "을": {"를", "을"},
	"와": {"와", "과"}, "과": {"와", "과"},
	"로": {"로", "으로"}, "으로": {"로", "으로"},
}

// digitFinal is how each digit, read in Sino-Korean, ends: 0 no final
// consonant, 1 a consonant, 2 the consonant ㄹ.
var digitFinal = [10]int{1, 2, 0, 1, 0, 0, 1, 2, 2, 0} // 영 일 이 삼 사 오 육 칠 팔 구

// numberFinal is how a number's Korean reading ends: its last digit's, or
// for a multiple of ten the unit's (십, 백, 천 and 만 all end in a
// consonant).
func numberFinal(digits string) int {
	if last := digits[len(digits)-1]; last != '0' || len(digits) == 1 {
		return digitFinal[last-'0']
	}
	return 1
}

// FixKoreanParticles chooses the particle after every number in s that
// one follows (a particle ends at a space, punctuation or the text's end:
// 2가지 is a word, not a particle).
func FixKoreanParticles(s string) string {
	if !strings.ContainsAny(s, "가이는은를을와과로") {
		return s
	}
	var b strings.Builder
	i := 0
	for i < len(s) {
		c := s[i]
		if c < '0' || c > '9' {
			b.WriteByte(c)
			i++
			continue
		}
		j := i
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		b.WriteString(s[i:j])
		form, n := particleAt(s[j:])
		if n > 0 {
			pair := particlePairs[form]
			final := numberFinal(s[i:j])
			pick := pair[min(final, 1)]
			if form == "로" || form == "으로" {
				if final == 2 {
					pick = pair[0] // ㄹ takes 로
				}
			}
			b.WriteString(pick)
			j += n
		}
		i = j
	}
	return b.String()
}

// particleAt reports the particle s starts with (and its length in
// bytes), when one stands there on its own.
func particleAt(s string) (string, int) {
	for _, form := range []string{"으로", "가", "이", "는", "은", "를", "을", "와", "과", "로"} {
		if !strings.HasPrefix(s, form) {
			continue
		}
		rest := s[len(form):]
		if r, _ := utf8.DecodeRuneInString(rest); rest != "" && r >= 0xAC00 && r <= 0xD7A3 {
			return "", 0 // a Hangul syllable follows: part of a word
		}
		return form, len(form)
	}
	return "", 0
}
