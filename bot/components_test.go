package bot

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestComponentIDRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		kind componentKind
		args []string
		want string
	}{
		{refreshReviewID, []string{"Mira"}, "refresh:review:Mira"},
		{refreshReviewID, []string{"Mira: the Bold"}, "refresh:review:Mira: the Bold"},
		{refreshReviewID, []string{""}, "refresh:review:"},
		{refreshSelectID, []string{"0a1b2c3d", "#1234abcd"}, "refresh:select:0a1b2c3d:#1234abcd"},
		{refreshUpdateID, []string{"0a1b2c3d", "all", "A:B:C"}, "refresh:update:0a1b2c3d:all:A:B:C"},
		{componentKind{name: "x:ping"}, nil, "x:ping"},
	} {
		id := tc.kind.encode(tc.args...)
		if id != tc.want {
			t.Errorf("encode %v = %q, want %q", tc.args, id, tc.want)
		}
		kind, err := kindOf(id)
		if err != nil || kind != tc.kind.name {
			t.Errorf("kindOf(%q) = %q, %v", id, kind, err)
		}
		args, err := tc.kind.parse(id)
		if err != nil || !slices.Equal(args, tc.args) {
			t.Errorf("parse(%q) = %q, %v; want %q", id, args, err, tc.args)
		}
	}
}

func TestComponentIDRefusesMalformed(t *testing.T) {
	for _, id := range []string{"", "refresh", "refresh:", ":review:x", "refresh:select:nodigest", "refresh:update:d:all", "refresh:reviewer:x", "refresh:review"} {
		var err error
		if _, err = kindOf(id); err == nil {
			kind := refreshUpdateID
			for _, k := range []componentKind{refreshReviewID, refreshSelectID} {
				if strings.HasPrefix(id, k.name) {
					kind = k
				}
			}
			_, err = kind.parse(id)
		}
		if !errors.Is(err, errMalformedComponentID) {
			t.Errorf("%q: err %v, want errMalformedComponentID", id, err)
		}
	}
	if _, err := (componentKind{name: "x:ping"}).parse("x:ping:extra"); !errors.Is(err, errMalformedComponentID) {
		t.Errorf("argument to a kind without: %v", err)
	}
}

func TestComponentIDEncodeRefusesBuilderMistakes(t *testing.T) {
	for name, f := range map[string]func(){
		"colon before the last": func() { refreshSelectID.encode("a:b", "Mira") },
		"too few arguments":     func() { refreshUpdateID.encode("0a1b2c3d", "Mira") },
		"too long":              func() { refreshReviewID.encode(strings.Repeat("x", refreshReviewID.room()+1)) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f()
		}()
	}
	if got := len(refreshReviewID.encode(strings.Repeat("x", refreshReviewID.room()))); got != maxCustomID {
		t.Errorf("room fills the id to %d, want %d", got, maxCustomID)
	}
}

func TestUnknownAndMalformedComponentsAreNoLongerInUse(t *testing.T) {
	m := newCmdTable(t)
	for _, id := range []string{"refresh:nonsense:x", "poll:vote:1", "refresh:select:only", "garbage", ""} {
		got := m.core.OnComponent(context.Background(), Component{CustomID: id, User: pkAna, ChannelID: m.ch})
		wantResponse(t, id, got, "That button is no longer in use: run the command again.", true)
	}
}

func TestPanickingComponentIsAnInternalError(t *testing.T) {
	m := newCmdTable(t)
	m.core.router.component(componentKind{name: "test:panic"}, func(*Core, context.Context, Component, []string) (Response, error) {
		panic("boom")
	})
	got := m.core.OnComponent(context.Background(), Component{CustomID: "test:panic", User: pkAna, ChannelID: m.ch})
	wantResponse(t, "panic", got, "Internal error", true)
}

func TestRouterRefusesMistakes(t *testing.T) {
	for name, f := range map[string]func(r *router){
		"duplicate command": func(r *router) { r.command(CommandSpec{Name: "Sheet"}, nil) },
		"no such option":    func(r *router) { r.command(CommandSpec{Name: "x"}, nil).complete("name", (*Core).anyCardChoices) },
		"flag without completer": func(r *router) {
			r.command(CommandSpec{Name: "x", Options: []OptionSpec{{Name: "name", Autocomplete: true}}}, nil)
		},
		"duplicate component": func(r *router) { r.component(refreshReviewID, nil) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f(newRouter())
		}()
	}
}

// Every option the router marks as autocompleted has its completer, and no other does.
func TestAutocompletedOptionsHaveCompleters(t *testing.T) {
	r := newRouter()
	for name, rt := range r.routes {
		for _, o := range rt.spec.Options {
			_, has := rt.completes[strings.ToLower(o.Name)]
			if has != o.Autocomplete {
				t.Errorf("/%s %s: Autocomplete %v, completer %v", name, o.Name, o.Autocomplete, has)
			}
		}
	}
}
