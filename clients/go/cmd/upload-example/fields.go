package main

import (
	"context"
	"fmt"
	"io"

	"connectrpc.com/connect"

	customfieldsv1 "filesandfields.local/clients/go/gen/customfields/v1"
	"filesandfields.local/clients/go/gen/customfields/v1/customfieldsv1connect"
)

// printFieldDefinitions prints every definition of entityType, a line each, page after page.
func printFieldDefinitions(ctx context.Context, fields customfieldsv1connect.CustomFieldsServiceClient, entityType string, out io.Writer) error {
	pageToken := ""
	for {
		res, err := fields.ListFieldDefinitions(ctx, connect.NewRequest(&customfieldsv1.ListFieldDefinitionsRequest{EntityType: entityType, PageToken: pageToken}))
		if err != nil {
			return fmt.Errorf("ListFieldDefinitions: %w", err)
		}
		for _, d := range res.Msg.GetFieldDefinitions() {
			fmt.Fprintf(out, "field %s %s %s %q\n", entityType, d.GetFieldKey(), d.GetFieldType(), d.GetFieldLabel())
		}
		pageToken = res.Msg.GetNextPageToken()
		if pageToken == "" {
			return nil
		}
	}
}
