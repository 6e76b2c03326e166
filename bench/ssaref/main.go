// Command ssaref answers server-side apply requests with the Kubernetes API server's own
// field manager (k8s.io/apimachinery/pkg/util/managedfields), for bench/ssa_oracle.py.
//
// One JSON request per line on stdin, one JSON answer per line on stdout:
//
//	{"op":"apply","live":OBJ|null,"body":"YAML","manager":"M","force":false}
//	{"op":"update","live":OBJ|null,"new":OBJ,"manager":"M"}
//
// The answer is {"object":OBJ} or {"code":N,"status":STATUS}. The type of an object comes
// from the Kubernetes OpenAPI v2 document given as the first argument (its definitions);
// a kind it does not describe is merged with the deduced type, as a custom resource
// without a schema. The reset fields are `status` for every kind whose type has one.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/kube-openapi/pkg/validation/spec"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

type request struct {
	Op      string         `json:"op"`
	Live    map[string]any `json:"live"`
	New     map[string]any `json:"new"`
	Body    string         `json:"body"`
	Manager string         `json:"manager"`
	Force   bool           `json:"force"`
}

type answer struct {
	Object map[string]any `json:"object,omitempty"`
	Code   int32          `json:"code,omitempty"`
	Status *metav1.Status `json:"status,omitempty"`
}

// identity converts nothing: every object is unstructured at its own version.
type identity struct{}

func (identity) Convert(in, out, context any) error { return fmt.Errorf("unsupported") }
func (identity) ConvertToVersion(in runtime.Object, _ runtime.GroupVersioner) (runtime.Object, error) {
	return in, nil
}
func (identity) ConvertFieldLabel(_ schema.GroupVersionKind, label, value string) (string, string, error) {
	return label, value, nil
}

type noDefaults struct{}

func (noDefaults) Default(runtime.Object) {}

type creater struct{}

func (creater) New(gvk schema.GroupVersionKind) (runtime.Object, error) {
	u := &unstructured.Unstructured{Object: map[string]any{}}
	u.SetGroupVersionKind(gvk)
	return u, nil
}

type server struct {
	typed    managedfields.TypeConverter
	deduced  managedfields.TypeConverter
	kinds    map[schema.GroupVersionKind]bool // described by the document
	status   map[schema.GroupVersionKind]bool // whose type has a status field
	managers map[schema.GroupVersionKind]*managedfields.FieldManager
}

func load(path string) (*server, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var doc struct {
		Definitions map[string]*spec.Schema `json:"definitions"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		return nil, err
	}
	// OpenAPI v2 drops `default`; the API server's models keep the ones list-map keys need
	// (../shared/ssa/OPENAPI.md, "List-map keys that need a default").
	for def, field := range map[string]string{
		"io.k8s.api.core.v1.ContainerPort":        "protocol",
		"io.k8s.api.core.v1.ServicePort":          "protocol",
		"io.k8s.api.core.v1.LocalObjectReference": "name",
	} {
		d := doc.Definitions[def]
		if d == nil {
			return nil, fmt.Errorf("no definition %s", def)
		}
		p := d.Properties[field]
		p.Default = map[string]any{"protocol": "TCP", "name": ""}[field]
		d.Properties[field] = p
	}
	s := &server{kinds: map[schema.GroupVersionKind]bool{}, status: map[schema.GroupVersionKind]bool{},
		managers: map[schema.GroupVersionKind]*managedfields.FieldManager{}}
	for _, def := range doc.Definitions {
		gvks, _ := def.Extensions["x-kubernetes-group-version-kind"].([]any)
		for _, g := range gvks {
			m, _ := g.(map[string]any)
			gvk := schema.GroupVersionKind{Group: str(m["group"]), Version: str(m["version"]), Kind: str(m["kind"])}
			s.kinds[gvk] = true
			_, s.status[gvk] = def.Properties["status"]
		}
	}
	if s.typed, err = managedfields.NewTypeConverter(doc.Definitions, false); err != nil {
		return nil, err
	}
	s.deduced = managedfields.NewDeducedTypeConverter()
	return s, nil
}

func str(v any) string { s, _ := v.(string); return s }

func (s *server) manager(gvk schema.GroupVersionKind) (*managedfields.FieldManager, error) {
	if m := s.managers[gvk]; m != nil {
		return m, nil
	}
	reset := map[fieldpath.APIVersion]fieldpath.Filter{}
	if s.status[gvk] {
		reset[fieldpath.APIVersion(gvk.GroupVersion().String())] = fieldpath.NewExcludeSetFilter(
			fieldpath.NewSet(fieldpath.MakePathOrDie("status")))
	}
	var m *managedfields.FieldManager
	var err error
	if s.kinds[gvk] {
		m, err = managedfields.NewDefaultFieldManager(s.typed, identity{}, noDefaults{}, creater{}, gvk, gvk.GroupVersion(), "", reset)
	} else {
		m, err = managedfields.NewDefaultCRDFieldManager(s.deduced, identity{}, noDefaults{}, creater{}, gvk, gvk.GroupVersion(), "", reset)
	}
	if err != nil {
		return nil, err
	}
	s.managers[gvk] = m
	return m, nil
}

func (s *server) serve(r request) answer {
	var applied *unstructured.Unstructured
	var gvk schema.GroupVersionKind
	switch {
	case r.Op == "apply":
		applied = &unstructured.Unstructured{Object: map[string]any{}}
		if err := yaml.Unmarshal([]byte(r.Body), &applied.Object); err != nil {
			return failure(apierrors.NewBadRequest(fmt.Sprintf("error decoding patch: %v", err)))
		}
		gvk = applied.GroupVersionKind()
	case r.Op == "update":
		applied = &unstructured.Unstructured{Object: r.New}
		gvk = applied.GroupVersionKind()
	default:
		return failure(apierrors.NewBadRequest("unknown op " + r.Op))
	}
	var live runtime.Object
	if r.Live != nil {
		live = &unstructured.Unstructured{Object: r.Live}
		gvk = live.GetObjectKind().GroupVersionKind()
	} else {
		live, _ = creater{}.New(gvk)
	}
	fm, err := s.manager(gvk)
	if err != nil {
		return failure(apierrors.NewInternalError(err))
	}
	var out runtime.Object
	if r.Op == "apply" {
		out, err = fm.Apply(live, applied, r.Manager, r.Force)
		if err != nil {
			return failure(err)
		}
	} else {
		out = fm.UpdateNoErrors(live, applied, r.Manager)
	}
	u, err := runtime.DefaultUnstructuredConverter.ToUnstructured(out)
	if err != nil {
		return failure(apierrors.NewInternalError(err))
	}
	if s.status[gvk] {
		// The registry strategies of the built-in kinds: a create starts without status, an
		// update of the main resource keeps the status it had.
		if st, ok := r.Live["status"]; ok {
			u["status"] = st
		} else {
			delete(u, "status")
		}
	}
	return answer{Object: u}
}

func failure(err error) answer {
	var s metav1.Status
	if st, ok := err.(apierrors.APIStatus); ok {
		s = st.Status()
	} else {
		// As the API server's ErrorToAPIStatus answers an error that is not a Status.
		s = metav1.Status{Status: metav1.StatusFailure, Code: 500, Message: err.Error()}
	}
	// As the API server writes it, so that clients read it as a Status.
	s.TypeMeta = metav1.TypeMeta{Kind: "Status", APIVersion: "v1"}
	return answer{Code: s.Code, Status: &s}
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: ssaref SWAGGER.json")
		os.Exit(2)
	}
	s, err := load(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "ssaref:", err)
		os.Exit(2)
	}
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<30)
	out := json.NewEncoder(os.Stdout)
	for in.Scan() {
		var r request
		var a answer
		if err := json.Unmarshal(in.Bytes(), &r); err != nil {
			a = failure(apierrors.NewBadRequest(strings.TrimSpace(err.Error())))
		} else {
			a = s.serve(r)
		}
		if err := out.Encode(a); err != nil {
			os.Exit(1)
		}
	}
}
