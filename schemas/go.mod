module github.com/mneme-ai/mneme/schemas

go 1.26.0
