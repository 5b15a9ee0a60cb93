// Renders a Helm chart offline, the way `helm template` does, for the chart checks
// (tools/chart/check.sh): Go text/template with sprig's functions and Helm's own (include, tpl,
// required, toYaml, fromYaml, toJson, fromJson, lookup, .Files, .Capabilities). No helm binary
// and no cluster: `lookup` finds nothing, as in `helm template`.
//
//	GO111MODULE=off GOPATH=/usr/share/gocode go run render.go -chart DIR [-f values.yaml]... \
//	    [-name RELEASE] [-namespace NS] [-out FILE]
//
// Output: every rendered manifest, each preceded by `# Source: CHART/templates/FILE`, separated
// by `---`. A template error exits 1 with Helm-like messages naming the template.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/ioutil"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"text/template"

	"github.com/Masterminds/sprig"
	yaml "gopkg.in/yaml.v2"
)

type valueFiles []string

func (v *valueFiles) String() string     { return strings.Join(*v, ",") }
func (v *valueFiles) Set(s string) error { *v = append(*v, s); return nil }

// Files is the chart's non-template files, as Helm's .Files: Get, Glob, Lines, AsConfig.
type Files map[string][]byte

func (f Files) Get(name string) string { return string(f[name]) }

func (f Files) GetBytes(name string) []byte { return f[name] }

func (f Files) Lines(name string) []string {
	s := strings.TrimRight(string(f[name]), "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

// Glob matches like Helm's (gobwas/glob with '/' as separator): '*' stays within a path
// segment, '**' crosses them.
func (f Files) Glob(pattern string) Files {
	out := Files{}
	for name, data := range f {
		if globMatch(pattern, name) {
			out[name] = data
		}
	}
	return out
}

func globMatch(pattern, name string) bool {
	if pattern == "" {
		return name == ""
	}
	if strings.HasPrefix(pattern, "**") {
		rest := pattern[2:]
		for i := 0; i <= len(name); i++ {
			if globMatch(rest, name[i:]) {
				return true
			}
		}
		return false
	}
	if name == "" {
		return false
	}
	switch pattern[0] {
	case '*':
		for i := 0; i <= len(name); i++ {
			if i > 0 && name[i-1] == '/' {
				break
			}
			if globMatch(pattern[1:], name[i:]) {
				return true
			}
		}
		return false
	case '?':
		return name[0] != '/' && globMatch(pattern[1:], name[1:])
	default:
		return pattern[0] == name[0] && globMatch(pattern[1:], name[1:])
	}
}

func (f Files) AsConfig() string {
	m := map[string]string{}
	for k, v := range f {
		m[path.Base(k)] = string(v)
	}
	out, _ := toYAML(m)
	return out
}

// toYAML marshals as Helm does (through JSON, so keys sort and types are JSON's).
func toYAML(v interface{}) (string, error) {
	j, err := json.Marshal(v)
	if err != nil {
		return "", err
	}
	var generic interface{}
	if err := yaml.Unmarshal(j, &generic); err != nil {
		return "", err
	}
	out, err := yaml.Marshal(generic)
	if err != nil {
		return "", err
	}
	return strings.TrimSuffix(string(out), "\n"), nil
}

// normalize turns yaml.v2's map[interface{}]interface{} into JSON-shaped values, numbers as
// float64 (what Helm's values are after sigs.k8s.io/yaml).
func normalize(v interface{}) interface{} {
	switch t := v.(type) {
	case map[interface{}]interface{}:
		m := map[string]interface{}{}
		for k, val := range t {
			m[fmt.Sprint(k)] = normalize(val)
		}
		return m
	case map[string]interface{}:
		for k, val := range t {
			t[k] = normalize(val)
		}
		return t
	case []interface{}:
		for i := range t {
			t[i] = normalize(t[i])
		}
		return t
	case int:
		return float64(t)
	case int64:
		return float64(t)
	case uint64:
		return float64(t)
	default:
		return v
	}
}

func readYAML(file string) (map[string]interface{}, error) {
	data, err := ioutil.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var raw interface{}
	if err := yaml.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("%s: %v", file, err)
	}
	if raw == nil {
		return map[string]interface{}{}, nil
	}
	m, ok := normalize(raw).(map[string]interface{})
	if !ok {
		return nil, fmt.Errorf("%s: not a mapping", file)
	}
	return m, nil
}

// merge overlays b on a as Helm merges values files: maps deep, anything else replaced, null
// deletes the key.
func merge(a, b map[string]interface{}) map[string]interface{} {
	for k, bv := range b {
		if bv == nil {
			delete(a, k)
			continue
		}
		am, aok := a[k].(map[string]interface{})
		bm, bok := bv.(map[string]interface{})
		if aok && bok {
			a[k] = merge(am, bm)
		} else {
			a[k] = bv
		}
	}
	return a
}

// chartFiles reads every file of the chart (following symlinks, as Helm's loader does),
// relative to the chart root with '/' separators, minus .helmignore'd ones.
func chartFiles(root string) (Files, error) {
	ignore := []string{}
	if data, err := ioutil.ReadFile(filepath.Join(root, ".helmignore")); err == nil {
		for _, line := range strings.Split(string(data), "\n") {
			line = strings.TrimSpace(line)
			if line != "" && !strings.HasPrefix(line, "#") {
				ignore = append(ignore, line)
			}
		}
	}
	ignored := func(rel string) bool {
		for _, p := range ignore {
			if strings.HasSuffix(p, "/") {
				if strings.HasPrefix(rel, p) {
					return true
				}
			} else if ok, _ := path.Match(p, path.Base(rel)); ok {
				return true
			} else if p == rel {
				return true
			}
		}
		return false
	}
	files := Files{}
	var walk func(dir, rel string) error
	walk = func(dir, rel string) error {
		entries, err := ioutil.ReadDir(dir)
		if err != nil {
			return err
		}
		for _, e := range entries {
			full := filepath.Join(dir, e.Name())
			name := path.Join(rel, e.Name())
			info, err := os.Stat(full) // follows symlinks
			if err != nil {
				return err
			}
			if info.IsDir() {
				if ignored(name + "/") {
					continue
				}
				if err := walk(full, name); err != nil {
					return err
				}
				continue
			}
			if ignored(name) {
				continue
			}
			data, err := ioutil.ReadFile(full)
			if err != nil {
				return err
			}
			files[name] = data
		}
		return nil
	}
	return files, walk(root, "")
}

func main() {
	chartDir := flag.String("chart", "", "chart directory")
	var values valueFiles
	flag.Var(&values, "f", "values file (repeatable; later ones win)")
	release := flag.String("name", "tracewise", "release name")
	namespace := flag.String("namespace", "default", "release namespace")
	out := flag.String("out", "", "write the manifests here (default stdout)")
	flag.Parse()
	if *chartDir == "" {
		fmt.Fprintln(os.Stderr, "usage: render -chart DIR [-f values.yaml]... [-name R] [-namespace NS] [-out FILE]")
		os.Exit(2)
	}
	manifests, err := render(*chartDir, values, *release, *namespace)
	if err != nil {
		fmt.Fprintln(os.Stderr, "render:", err)
		os.Exit(1)
	}
	if *out == "" {
		fmt.Print(manifests)
		return
	}
	if err := ioutil.WriteFile(*out, []byte(manifests), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "render:", err)
		os.Exit(1)
	}
}

func render(chartDir string, valueFiles []string, release, namespace string) (string, error) {
	chart, err := readYAML(filepath.Join(chartDir, "Chart.yaml"))
	if err != nil {
		return "", err
	}
	name, _ := chart["name"].(string)
	if name == "" {
		return "", errors.New("Chart.yaml has no name")
	}
	values, err := readYAML(filepath.Join(chartDir, "values.yaml"))
	if err != nil {
		return "", err
	}
	for _, f := range valueFiles {
		overlay, err := readYAML(f)
		if err != nil {
			return "", err
		}
		values = merge(values, overlay)
	}
	all, err := chartFiles(chartDir)
	if err != nil {
		return "", err
	}
	files := Files{}
	var templates []string
	for rel, data := range all {
		if strings.HasPrefix(rel, "templates/") {
			templates = append(templates, rel)
		} else {
			files[rel] = data
		}
	}
	sort.Strings(templates)

	// Chart metadata under Helm's capitalised names.
	chartObj := map[string]interface{}{}
	for k, v := range chart {
		chartObj[strings.ToUpper(k[:1])+k[1:]] = v
	}
	basePath := name + "/templates"
	top := func(templateName string) map[string]interface{} {
		return map[string]interface{}{
			"Values":  values,
			"Chart":   chartObj,
			"Files":   files,
			"Release": map[string]interface{}{"Name": release, "Namespace": namespace, "Service": "Helm", "IsInstall": true, "IsUpgrade": false, "Revision": 1},
			"Capabilities": map[string]interface{}{
				"KubeVersion": map[string]interface{}{"Version": "v1.28.0", "Major": "1", "Minor": "28", "GitVersion": "v1.28.0"},
				"APIVersions": []string{"v1", "apps/v1", "autoscaling/v2", "policy/v1", "networking.k8s.io/v1"},
			},
			"Template": map[string]interface{}{"Name": templateName, "BasePath": basePath},
		}
	}

	root := template.New("chart")
	funcs := sprig.TxtFuncMap()
	// Helm's own functions. include needs the template set, so it is bound after parsing.
	includeDepth := 0
	funcs["include"] = func(name string, data interface{}) (string, error) {
		includeDepth++
		defer func() { includeDepth-- }()
		if includeDepth > 1000 {
			return "", fmt.Errorf("include %q: rendering too deep (a recursive template?)", name)
		}
		var buf bytes.Buffer
		if err := root.ExecuteTemplate(&buf, name, data); err != nil {
			return "", err
		}
		return buf.String(), nil
	}
	funcs["tpl"] = func(text string, data interface{}) (string, error) {
		t, err := root.Clone()
		if err != nil {
			return "", err
		}
		t, err = t.New("tpl").Option("missingkey=zero").Parse(text)
		if err != nil {
			return "", err
		}
		var buf bytes.Buffer
		if err := t.Execute(&buf, data); err != nil {
			return "", err
		}
		return buf.String(), nil
	}
	funcs["required"] = func(message string, v interface{}) (interface{}, error) {
		if v == nil {
			return nil, errors.New(message)
		}
		if s, ok := v.(string); ok && s == "" {
			return nil, errors.New(message)
		}
		return v, nil
	}
	funcs["toYaml"] = func(v interface{}) string {
		s, err := toYAML(v)
		if err != nil {
			return ""
		}
		return s
	}
	funcs["fromYaml"] = func(s string) map[string]interface{} {
		var raw interface{}
		if err := yaml.Unmarshal([]byte(s), &raw); err != nil {
			return map[string]interface{}{"Error": err.Error()}
		}
		m, _ := normalize(raw).(map[string]interface{})
		return m
	}
	funcs["toJson"] = func(v interface{}) string {
		b, _ := json.Marshal(v)
		return string(b)
	}
	funcs["fromJson"] = func(s string) map[string]interface{} {
		m := map[string]interface{}{}
		if err := json.Unmarshal([]byte(s), &m); err != nil {
			m["Error"] = err.Error()
		}
		return m
	}
	funcs["lookup"] = func(apiVersion, kind, namespace, name string) (map[string]interface{}, error) {
		return map[string]interface{}{}, nil // no cluster: as `helm template`
	}
	root.Funcs(funcs).Option("missingkey=zero")
	for _, rel := range templates {
		full := path.Join(name, rel)
		if _, err := root.New(full).Parse(string(all[rel])); err != nil {
			return "", fmt.Errorf("parse error in %s", strings.TrimPrefix(err.Error(), "template: "))
		}
	}

	var out strings.Builder
	for _, rel := range templates {
		base := path.Base(rel)
		if strings.HasPrefix(base, "_") || !(strings.HasSuffix(base, ".yaml") || strings.HasSuffix(base, ".yml") || strings.HasSuffix(base, ".tpl") || strings.HasSuffix(base, ".txt")) {
			continue
		}
		if strings.HasSuffix(base, ".tpl") || base == "NOTES.txt" {
			continue
		}
		full := path.Join(name, rel)
		var buf bytes.Buffer
		if err := root.ExecuteTemplate(&buf, full, top(full)); err != nil {
			return "", fmt.Errorf("%s", strings.TrimPrefix(err.Error(), "template: "))
		}
		// Helm drops "<no value>" the same way missingkey=zero prints it.
		text := strings.ReplaceAll(buf.String(), "<no value>", "")
		for _, doc := range splitDocs(text) {
			if strings.TrimSpace(stripComments(doc)) == "" {
				continue
			}
			fmt.Fprintf(&out, "---\n# Source: %s\n%s\n", full, strings.Trim(doc, "\n"))
		}
	}
	return out.String(), nil
}

func splitDocs(text string) []string {
	var docs []string
	var cur []string
	for _, line := range strings.Split(text, "\n") {
		if strings.TrimRight(line, " ") == "---" {
			docs = append(docs, strings.Join(cur, "\n"))
			cur = nil
			continue
		}
		cur = append(cur, line)
	}
	return append(docs, strings.Join(cur, "\n"))
}

func stripComments(doc string) string {
	var keep []string
	for _, line := range strings.Split(doc, "\n") {
		if !strings.HasPrefix(strings.TrimSpace(line), "#") {
			keep = append(keep, line)
		}
	}
	return strings.Join(keep, "\n")
}
