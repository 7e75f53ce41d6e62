package main

import (
	"context"
	"net/http"

	"connectrpc.com/connect"

	"filesandfields.local/clients/go/gen/customfields/v1/customfieldsv1connect"
	"filesandfields.local/clients/go/gen/filestorage/v1/filestoragev1connect"
)

type clients struct {
	files  filestoragev1connect.FileStorageServiceClient
	fields customfieldsv1connect.CustomFieldsServiceClient
}

func newClients(opts options) clients {
	httpClient := http.DefaultClient
	clientOpts := []connect.ClientOption{connect.WithInterceptors(bearer(opts.token))}
	if opts.protocol == "grpc" {
		// gRPC needs HTTP/2; a plain http:// API speaks it without TLS (h2c).
		protocols := new(http.Protocols)
		protocols.SetHTTP2(true)
		protocols.SetUnencryptedHTTP2(true)
		httpClient = &http.Client{Transport: &http.Transport{Protocols: protocols}}
		clientOpts = append(clientOpts, connect.WithGRPC())
	}
	return clients{
		files:  filestoragev1connect.NewFileStorageServiceClient(httpClient, opts.api, clientOpts...),
		fields: customfieldsv1connect.NewCustomFieldsServiceClient(httpClient, opts.api, clientOpts...),
	}
}

func bearer(token string) connect.UnaryInterceptorFunc {
	return func(next connect.UnaryFunc) connect.UnaryFunc {
		return func(ctx context.Context, req connect.AnyRequest) (connect.AnyResponse, error) {
			req.Header().Set("Authorization", "Bearer "+token)
			return next(ctx, req)
		}
	}
}
