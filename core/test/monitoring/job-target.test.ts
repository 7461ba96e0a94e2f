import { describe, expect, it } from 'vitest';
import { JOB_TARGET_MESSAGES, jobTargetProblem, tcpAddress } from '../../src/index';

describe('job target', () => {
  it('reads tcp://host:port with names, IPv4 and bracketed IPv6', () => {
    expect(tcpAddress('tcp://db.example.com:5432')).toEqual({ host: 'db.example.com', port: 5432 });
    expect(tcpAddress('tcp://10.0.0.1:22/')).toEqual({ host: '10.0.0.1', port: 22 });
    expect(tcpAddress('tcp://[::1]:22')).toEqual({ host: '::1', port: 22 });
    for (const bad of ['tcp://db:0', 'tcp://db:65536', 'tcp://db', 'http://db:80', 'tcp://a b:1'])
      expect(tcpAddress(bad)).toBeNull();
  });

  it('says in Chinese what each kind wants', () => {
    expect(jobTargetProblem('tcp', 'tcp://[::1]:22')).toBeNull();
    expect(jobTargetProblem('tcp', 'https://example.com')).toBe(JOB_TARGET_MESSAGES.tcp);
    expect(jobTargetProblem('http', 'https://example.com')).toBeNull();
    expect(jobTargetProblem('browser', 'HTTP://example.com')).toBeNull();
    expect(jobTargetProblem('keyword', 'tcp://db:1')).toBe(JOB_TARGET_MESSAGES.web);
  });
});
