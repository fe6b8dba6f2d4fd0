package config

import (
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// exampleLine matches a setting line of .env.example, commented out or not.
var exampleLine = regexp.MustCompile(`^(# )?([A-Z][A-Z0-9_]*)=(.*)$`)

// readExample returns the repository's .env.example.
func readExample(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile("../.env.example")
	if err != nil {
		t.Fatalf(".env.example belongs at the repository root: %v", err)
	}
	return strings.Split(string(b), "\n")
}

// Rule: .env.example lists every setting once, with its default and a
// one-line comment above it, commented out except the BOT_TOKEN and ADMIN_ID
// placeholders.
func TestEnvExampleListsEverySetting(t *testing.T) {
	lines := readExample(t)
	table := map[string]Setting{}
	for _, s := range Settings() {
		table[s.Name] = s
	}
	seen := map[string]bool{}
	for i, line := range lines {
		m := exampleLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		commented, name, value := m[1] != "", m[2], m[3]
		s, ok := table[name]
		if !ok {
			t.Errorf("line %d: %s is not a setting", i+1, name)
			continue
		}
		if seen[name] {
			t.Errorf("line %d: %s listed again", i+1, name)
		}
		seen[name] = true
		placeholder := name == "BOT_TOKEN" || name == "ADMIN_ID"
		if commented == placeholder {
			t.Errorf("line %d: %s commented = %v, want %v", i+1, name, commented, !placeholder)
		}
		wantValue := s.Default
		if name == "USER_AGENT" {
			wantValue = "" // its default depends on the version
		}
		if value != wantValue {
			t.Errorf("line %d: %s=%q, want the default %q", i+1, name, value, wantValue)
		}
		if i == 0 || !strings.HasPrefix(lines[i-1], "# ") || exampleLine.MatchString(lines[i-1]) {
			t.Errorf("line %d: %s has no comment line above it", i+1, name)
		}
	}
	for name := range table {
		if !seen[name] {
			t.Errorf(".env.example lacks %s", name)
		}
	}
}

// Rule: the defaults written in .env.example are the real defaults: with
// every line uncommented, Load yields the same configuration as with none.
func TestEnvExampleDefaultsMatchLoad(t *testing.T) {
	var uncommented []string
	for _, line := range readExample(t) {
		if m := exampleLine.FindStringSubmatch(line); m != nil {
			line = m[2] + "=" + m[3]
		}
		uncommented = append(uncommented, line)
	}
	withExample, without := t.TempDir(), t.TempDir()
	writeFile(t, withExample, ".env", strings.Join(uncommented, "\n"))
	// POST_TEMPLATE=post.gohtml, once uncommented, must name an existing
	// file; the default then picks up the same file.
	for _, dir := range []string{withExample, without} {
		writeFile(t, dir, "post.gohtml", "{{.Title}}")
	}
	a, errA := Load(nil, withExample, "1.0")
	b, errB := Load(nil, without, "1.0")
	if errA != nil || errB != nil {
		t.Fatalf("Load: %v / %v", errA, errB)
	}
	// The template path names each directory; compare the rest.
	a.PostTemplate = strings.TrimPrefix(a.PostTemplate, withExample)
	b.PostTemplate = strings.TrimPrefix(b.PostTemplate, without)
	if a.BotTimezone.String() != b.BotTimezone.String() {
		t.Errorf("BotTimezone %v vs %v", a.BotTimezone, b.BotTimezone)
	}
	a.BotTimezone, b.BotTimezone = nil, nil
	if !reflect.DeepEqual(a, b) {
		t.Errorf("uncommented .env.example:\n%v\ndefaults:\n%v", fieldsOf(a), fieldsOf(b))
	}
}
