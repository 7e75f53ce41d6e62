// Command upload-example uploads a file to the files-and-fields API end to end with the
// generated connect-go clients (InitiateUpload, PUT to the signed URL, CompleteUpload with
// wait), then lists the custom-field definitions of an entity type.
//
//	upload-example -api http://127.0.0.1:8080 -token $TOKEN -class USER_PROFILE_PHOTO me.png
//
// Exit codes: 0 READY, 1 failed, 2 bad command line, 3 the file was rejected by the scan.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	filestoragev1 "filesandfields.local/clients/go/gen/filestorage/v1"
)

type options struct {
	api, token, protocol            string
	class, contentType              string
	ownerType, ownerID, fieldEntity string
	file                            string
	timeout                         time.Duration
}

// errRejected marks a file the scan refused: the program worked, the file did not pass.
var errRejected = errors.New("the file was rejected by the scan")

func main() {
	opts, err := parseOptions(os.Args[1:], os.Stderr)
	if err != nil {
		fmt.Fprintf(os.Stderr, "upload-example: %v\n", err)
		os.Exit(2)
	}
	ctx, cancel := context.WithTimeout(context.Background(), opts.timeout)
	defer cancel()
	if err := run(ctx, opts, os.Stdout); err != nil {
		fmt.Fprintf(os.Stderr, "upload-example: %v\n", err)
		if errors.Is(err, errRejected) {
			os.Exit(3)
		}
		os.Exit(1)
	}
}

func parseOptions(args []string, usage io.Writer) (options, error) {
	var o options
	fs := flag.NewFlagSet("upload-example", flag.ContinueOnError)
	fs.SetOutput(usage)
	fs.StringVar(&o.api, "api", envOr("API_URL", "http://127.0.0.1:8080"), "base URL of the API (env API_URL)")
	fs.StringVar(&o.token, "token", os.Getenv("TOKEN"), "bearer token (env TOKEN)")
	fs.StringVar(&o.protocol, "protocol", "connect", "connect or grpc")
	fs.StringVar(&o.class, "class", "GENERAL_DOCUMENT", "object class, e.g. USER_PROFILE_PHOTO")
	fs.StringVar(&o.contentType, "type", "", "content type (default: from the file's extension)")
	fs.StringVar(&o.ownerType, "owner-type", "User", "owner entity type")
	fs.StringVar(&o.ownerID, "owner-id", "go-example", "owner entity id")
	fs.StringVar(&o.fieldEntity, "fields-of", "Customer", "entity type whose custom-field definitions are listed")
	fs.DurationVar(&o.timeout, "timeout", 2*time.Minute, "time allowed for the whole run")
	fs.Usage = func() {
		fmt.Fprintln(usage, "usage: upload-example [flags] <file>")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if fs.NArg() != 1 {
		return o, errors.New("expected exactly one file argument")
	}
	o.file = fs.Arg(0)
	if o.token == "" {
		return o, errors.New("a bearer token is required (-token or TOKEN)")
	}
	if o.protocol != "connect" && o.protocol != "grpc" {
		return o, fmt.Errorf("-protocol: %q is neither connect nor grpc", o.protocol)
	}
	return o, nil
}

func envOr(name, fallback string) string {
	if value := os.Getenv(name); value != "" {
		return value
	}
	return fallback
}

func run(ctx context.Context, opts options, out io.Writer) error {
	c := newClients(opts)
	object, err := upload(ctx, c.files, opts)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "object %s %s\n", object.GetId(), object.GetStatus())
	if object.GetStatus() == filestoragev1.ObjectStatus_REJECTED {
		return errRejected
	}
	return printFieldDefinitions(ctx, c.fields, opts.fieldEntity, out)
}
