package i18n

// Lang is a UI language, as a share link's lang= and the page's <html
// lang> write it.
type Lang string

const (
	English Lang = "en"
	Korean  Lang = "ko"
)
