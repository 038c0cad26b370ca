package einotool_test

import (
	"context"
	"fmt"
	"sync"

	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/schema"
)

// scripted is a model.ToolCallingChatModel that answers with its replies
// in order and records what it was given: the tools bound with WithTools
// and the messages of each Generate call.
type scripted struct {
	mu      sync.Mutex
	replies []*schema.Message
	tools   []*schema.ToolInfo
	inputs  [][]*schema.Message
}

func (m *scripted) Generate(_ context.Context, input []*schema.Message, _ ...model.Option) (*schema.Message, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.inputs = append(m.inputs, append([]*schema.Message(nil), input...))
	if len(m.inputs) > len(m.replies) {
		return nil, fmt.Errorf("scripted model: no reply %d", len(m.inputs))
	}
	return m.replies[len(m.inputs)-1], nil
}

func (m *scripted) Stream(ctx context.Context, input []*schema.Message, opts ...model.Option) (*schema.StreamReader[*schema.Message], error) {
	msg, err := m.Generate(ctx, input, opts...)
	if err != nil {
		return nil, err
	}
	return schema.StreamReaderFromArray([]*schema.Message{msg}), nil
}

func (m *scripted) WithTools(tools []*schema.ToolInfo) (model.ToolCallingChatModel, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.tools = tools
	return m, nil
}

// lastInput is the messages of the model's last Generate call.
func (m *scripted) lastInput() []*schema.Message {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.inputs[len(m.inputs)-1]
}

// callTool is an assistant message with one tool call.
func callTool(id, name, args string) *schema.Message {
	return schema.AssistantMessage("", []schema.ToolCall{{
		ID: id, Type: "function", Function: schema.FunctionCall{Name: name, Arguments: args},
	}})
}

// memoryStore is an adk.CheckPointStore in memory.
type memoryStore struct {
	mu sync.Mutex
	m  map[string][]byte
}

func (s *memoryStore) Get(_ context.Context, id string) ([]byte, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	b, ok := s.m[id]
	return b, ok, nil
}

func (s *memoryStore) Set(_ context.Context, id string, b []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m == nil {
		s.m = map[string][]byte{}
	}
	s.m[id] = b
	return nil
}
