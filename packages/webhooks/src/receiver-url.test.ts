import { describe, expect, it } from 'vitest';
import { publicWebhookUrl, requestTarget } from './receiver-url';

describe('receiver URLs', () => {
  it('are shown without credentials, query or fragment', () => {
    expect(publicWebhookUrl('https://user:p%40ss@hooks.example.com:8443/in/runtimectl?token=s3cret#x')).toBe('https://hooks.example.com:8443/in/runtimectl');
  });

  it('send their credentials as Basic authorization, not in the URL, and keep the query', () => {
    expect(requestTarget('https://user:p%40ss@hooks.example.com/in?token=s3cret')).toStrictEqual({
      url: 'https://hooks.example.com/in?token=s3cret',
      authorization: `Basic ${Buffer.from('user:p@ss').toString('base64')}`,
    });
    expect(requestTarget('http://127.0.0.1:9000/in')).toStrictEqual({ url: 'http://127.0.0.1:9000/in', authorization: undefined });
  });
});
