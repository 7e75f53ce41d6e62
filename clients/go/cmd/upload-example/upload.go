package main

import (
	"context"
	"fmt"
	"io"
	"mime"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"connectrpc.com/connect"

	filestoragev1 "filesandfields.local/clients/go/gen/filestorage/v1"
	"filesandfields.local/clients/go/gen/filestorage/v1/filestoragev1connect"
)

// upload initiates, PUTs the bytes and completes, and returns the object in its final status.
func upload(ctx context.Context, files filestoragev1connect.FileStorageServiceClient, opts options) (*filestoragev1.StoredObject, error) {
	class, ok := filestoragev1.ObjectClass_value[opts.class]
	if !ok || class == 0 {
		return nil, fmt.Errorf("-class: unknown object class %q", opts.class)
	}
	info, err := os.Stat(opts.file)
	if err != nil {
		return nil, err
	}
	contentType := opts.contentType
	if contentType == "" {
		contentType = mime.TypeByExtension(filepath.Ext(opts.file))
	}
	if contentType == "" {
		return nil, fmt.Errorf("no content type known for %s; pass -type", opts.file)
	}
	started, err := files.InitiateUpload(ctx, connect.NewRequest(&filestoragev1.InitiateUploadRequest{
		ObjectClass:      filestoragev1.ObjectClass(class),
		OwnerEntityType:  opts.ownerType,
		OwnerEntityId:    opts.ownerID,
		OriginalFilename: filepath.Base(opts.file),
		ContentType:      contentType,
		FileSize:         info.Size(),
	}))
	if err != nil {
		return nil, fmt.Errorf("InitiateUpload: %w", err)
	}
	id := started.Msg.GetStoredObject().GetId()
	if err := put(ctx, started.Msg.GetUploadUrl(), started.Msg.GetUploadHeaders(), opts.file, info.Size()); err != nil {
		return nil, err
	}
	completed, err := files.CompleteUpload(ctx, connect.NewRequest(&filestoragev1.CompleteUploadRequest{ObjectId: id, WaitForResult: true}))
	if err != nil {
		return nil, fmt.Errorf("CompleteUpload: %w", err)
	}
	return untilFinal(ctx, files, completed.Msg.GetStoredObject())
}

// put sends the file to the signed URL with exactly the headers InitiateUpload returned: they
// are part of the signature.
func put(ctx context.Context, url string, headers map[string]string, path string, size int64) error {
	file, err := os.Open(path)
	if err != nil {
		return err
	}
	defer file.Close()
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, url, file)
	if err != nil {
		return err
	}
	req.ContentLength = size
	for name, value := range headers {
		req.Header.Set(name, value)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("PUT to the upload URL: %w", err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		body, _ := io.ReadAll(io.LimitReader(res.Body, 2048))
		return fmt.Errorf("PUT to the upload URL: %s: %s", res.Status, body)
	}
	return nil
}

// untilFinal polls while the scan still runs: a waiting CompleteUpload answers SCANNING when the
// scan outlasts the server's wait.
func untilFinal(ctx context.Context, files filestoragev1connect.FileStorageServiceClient, object *filestoragev1.StoredObject) (*filestoragev1.StoredObject, error) {
	for object.GetStatus() == filestoragev1.ObjectStatus_SCANNING {
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("object %s still SCANNING: %w", object.GetId(), ctx.Err())
		case <-time.After(time.Second):
		}
		got, err := files.GetUpload(ctx, connect.NewRequest(&filestoragev1.GetUploadRequest{ObjectId: object.GetId()}))
		if err != nil {
			return nil, fmt.Errorf("GetUpload: %w", err)
		}
		object = got.Msg.GetStoredObject()
	}
	return object, nil
}
