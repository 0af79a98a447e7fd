package ops

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// ReadyTimeout bounds one /readyz check: a store that does not answer within it is not
// ready.
const ReadyTimeout = 2 * time.Second

// Check is one readiness condition: Ready returns nil when it holds, else why not.
type Check struct {
	Name  string
	Ready func(ctx context.Context) error
}

// Handler serves the operator's endpoints:
//
//	/healthz  200 "ok" while the process serves HTTP at all
//	/readyz   200 "ready" when every check holds, else 503 naming each that failed, in
//	          the order given
//	/metrics  gather's metrics in the Prometheus text format
func Handler(gather prometheus.Gatherer, checks []Check, log *slog.Logger) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprintln(w, "ok")
	})
	mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), ReadyTimeout)
		defer cancel()
		var errs []error
		for _, c := range checks {
			if err := c.Ready(ctx); err != nil {
				errs = append(errs, fmt.Errorf("%s: %w", c.Name, err))
			}
		}
		if err := errors.Join(errs...); err != nil {
			http.Error(w, "not ready: "+err.Error(), http.StatusServiceUnavailable)
			return
		}
		fmt.Fprintln(w, "ready")
	})
	mux.Handle("GET /metrics", promhttp.HandlerFor(gather, promhttp.HandlerOpts{ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelError)}))
	return mux
}

// Server is the operator's HTTP server, listening where --http says.
type Server struct {
	srv *http.Server
	ln  net.Listener
}

// Listen starts serving h on addr (host:port; port 0 picks a free one, as tests do).
func Listen(addr string, h http.Handler, log *slog.Logger) (*Server, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("operator endpoints on %s: %w", addr, err)
	}
	s := &Server{ln: ln, srv: &http.Server{Handler: h, ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout: 10 * time.Second, WriteTimeout: 30 * time.Second, IdleTimeout: time.Minute,
		ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelWarn)}}
	go func() {
		if err := s.srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error("operator endpoints stopped", "addr", s.Addr(), "err", err)
		}
	}()
	return s, nil
}

// Addr is where the server listens (the port chosen when addr's was 0).
func (s *Server) Addr() string { return s.ln.Addr().String() }

// Close stops the server, letting the requests in flight finish for up to 5 s.
func (s *Server) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return s.srv.Shutdown(ctx)
}
